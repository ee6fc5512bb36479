/**
 * The child both start benchmarks run (bench/first-tool.ts, bench/plugin-start.mjs) with
 * `node --input-type=module -e`: its host's Cordis (`CORDIS`) first, then the clock, the import
 * of the entry (`ENTRY`) and `ctx.plugin(entry, config)` against the stdio fixture (`FIXTURE`)
 * until the first `ctx.tools.register`, with a minimal `tools` service. Prints the two figures.
 */
export const FIRST_TOOL_CHILD = `
const { Context } = await import(process.env.CORDIS)
const t0 = performance.now()
const entry = await import(process.env.ENTRY)
const imported = performance.now() - t0
const ctx = new Context()
let first
const registered = new Promise((resolve) => (first = resolve))
ctx.provide('tools')
ctx.set('tools', { register: () => (first(), () => {}), get: () => undefined, list: () => [], execute: async () => ({}) })
const { command, args } = JSON.parse(process.env.FIXTURE)
const fiber = ctx.plugin(entry, { transport: 'stdio', serverName: 's', command, args })
await registered
console.log(JSON.stringify({ imported, firstTool: performance.now() - t0 }))
await fiber.dispose()
process.exit(0)
`
