// An owner whose server leaves its group: through @mcp-bridge/process (the build), it starts a
// shell command line (shell: true) that ignores SIGTERM and starts a grandchild in a session of
// its own (setsid), which ignores SIGTERM too; then ends the way OWNER_END says.
//   OWNER_TAKE=1       spawn with takeDescendants
//   OWNER_SIGNALS=1    install handleSignals
//   OWNER_END          wait (default) | exit (process.exit once its stdin ends)
// Prints one JSON line on stdout once the grandchild runs: { server }.
import { setInterval } from 'node:timers'
import { handleSignals, spawnGroup } from '@mcp-bridge/process'

if (process.env.OWNER_SIGNALS) handleSignals({ graceMs: 1000 })
const command = `trap "" TERM; setsid ${process.execPath} -e "process.on('SIGTERM', () => {}); setInterval(() => {}, 60000)" & echo started; wait`
const server = spawnGroup(command, [], { env: process.env, graceMs: 200, shell: true, takeDescendants: process.env.OWNER_TAKE === '1', stdio: ['ignore', 'pipe', 'inherit'] })
await new Promise((resolve) => server.child.stdout.once('data', resolve))
process.stdout.write(`${JSON.stringify({ server: server.pid })}\n`)
if (process.env.OWNER_END === 'exit') process.stdin.on('end', () => process.exit(0)).resume()
setInterval(() => {}, 60_000)
