// The conformance bin as it was before the packages were built (commit 6738622 replaced it):
// tsx compiles the TypeScript sources on the fly. bench/startup.ts runs it with
// --conditions=mcp-bridge-source so the workspace packages resolve to their sources too, as their
// exports did then. It exists only to measure that path against the built bin.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../conformance/src/cli.ts')
const code = await main(process.argv.slice(2))
process.exitCode = code
// Same as the bin: lingering keep-alive sockets must not hold the process open.
setTimeout(() => process.exit(code), 2_000).unref()
