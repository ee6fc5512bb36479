// Preloaded with --import: records every module URL this process resolves, so a host can prove
// which packages it actually ran (for example: no second Cordis besides @deepseek-ai/cordis).
import { registerHooks } from 'node:module'

const resolved = new Set()
globalThis.__resolvedModules = resolved
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context)
    resolved.add(result.url)
    return result
  },
})
