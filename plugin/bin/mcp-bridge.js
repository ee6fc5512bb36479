#!/usr/bin/env node
// The built CLI; `npm run build` (run by `npm ci` in the repository) writes dist/.
import { createRequire } from 'node:module'

try {
  await import('../dist/cli/main.js')
} catch (error) {
  // cordis is an optional peer (a host brings its own), so npm does not install it: say so in one line.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/'cordis'/.test(String(error.message))) throw error
  const wanted = createRequire(import.meta.url)('../package.json').peerDependencies.cordis
  process.stderr.write(`mcp-bridge: the CLI runs a Cordis host and needs cordis ${wanted}, which npm does not install with it: npm install cordis@${wanted.replace(/^[\^~]/, '')}\n`)
  process.exitCode = 1
}
