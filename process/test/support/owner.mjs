// An owner process for the tests: it starts one stubborn server through @mcp-bridge/process (the
// build), makes a temp directory, then ends the way OWNER_END says. Plain node, no loader.
//   OWNER_SIGNALS=1    install handleSignals (with OWNER_STOP: 'ok' a stopper that resolves, 'hang' one that never does)
//   OWNER_END          wait (default) | exit | throw
//   OWNER_WATCH_PARENT_MS  watchParent at that interval, stopping as on SIGTERM when the parent is gone
// Prints one JSON line on stdout once the server and its grandchild run: { server, tempDir }.
import { setInterval } from 'node:timers'
import { handleSignals, makeTempDir, onShutdown, spawnGroup, watchParent } from '@mcp-bridge/process'

// Ignores EOF and SIGTERM, and starts a grandchild that lives until killed.
const stubborn = `
  process.on('SIGTERM', () => {})
  const g = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' })
  process.stdout.write(String(g.pid) + '\\n')
  setInterval(() => {}, 60000)`

if (process.env.OWNER_SIGNALS) handleSignals({ graceMs: Number(process.env.OWNER_GRACE_MS ?? 1000) })
if (process.env.OWNER_STOP === 'ok') onShutdown(async () => void process.stdout.write('stopped\n'))
if (process.env.OWNER_STOP === 'hang') onShutdown(() => new Promise(() => {}))
if (process.env.OWNER_WATCH_PARENT_MS) watchParent(() => process.kill(process.pid, 'SIGTERM'), { intervalMs: Number(process.env.OWNER_WATCH_PARENT_MS) })
const temp = makeTempDir('owner-test-')
const server = spawnGroup(process.execPath, ['-e', stubborn], { env: process.env, graceMs: 200, stdio: ['pipe', 'pipe', 'inherit'] })
await new Promise((resolve) => server.child.stdout.once('data', resolve))
process.stdout.write(`${JSON.stringify({ server: server.pid, tempDir: temp.path, owner: process.pid })}\n`)
const end = process.env.OWNER_END
if (end === 'exit') process.exit(0)
if (end === 'throw') throw new Error('an uncaught exception in the owner')
setInterval(() => {}, 60_000)
