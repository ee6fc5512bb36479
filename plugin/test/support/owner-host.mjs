// A host process for the owner tests, run with plain node on the build. It bridges one stubborn
// server (ignores EOF and SIGTERM, does not end with its parent, has a grandchild that does not
// either), prints "ready", then ends the way OWNER_END says.
//   OWNER_HOST   createHost (default): the package's host, which handles SIGINT/SIGTERM
//                custom: a bare Cordis root, with no signal handling at all
//   OWNER_END    wait (default) | dispose | exit | throw, once a line arrives on stdin (after the
//                test has taken its census of the processes)
import { setInterval } from 'node:timers'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import * as bridge from '@mcp-bridge/plugin'
import { createHost, ToolRegistry } from '@mcp-bridge/host'
import { Context } from 'cordis'

const stubborn = { tools: [{ name: 'echo' }], stdio: { ignoreEof: true, ignoreSigterm: true, outliveParent: true, grandchild: true } }
const server = { serverName: 'stubborn', transport: 'stdio', ...fixtureCommand(stubborn), killGraceMs: 200 }

let ctx
let dispose
if (process.env.OWNER_HOST === 'custom') {
  ctx = new Context()
  const registry = ctx.plugin(ToolRegistry)
  await registry
  dispose = () => registry.dispose()
} else {
  const host = await createHost({ logging: false })
  ctx = host.ctx
  dispose = host.dispose
}
await ctx.plugin(bridge, server)
process.stdout.write('ready\n')

const end = process.env.OWNER_END
if (end) await new Promise((resolve) => process.stdin.once('data', resolve))
if (end === 'dispose') {
  await dispose()
  process.stdout.write('disposed\n')
} else if (end === 'exit') process.exit(0)
else if (end === 'throw') throw new Error('an uncaught exception in the host')
else setInterval(() => {}, 60_000)
