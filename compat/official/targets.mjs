// The three servers of the side-by-side, each started on a free port of 127.0.0.1 and stopped by
// the handle it returns: server-everything over Streamable HTTP (its set-up in compat/servers.mjs,
// run from the root devDependency), and the SDK v2 server fixture of the kit's tests, modern-only
// (legacy 'reject') and dual-era (legacy 'stateless', the SDK's default).
import { spawn } from 'node:child_process'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { startV2Http } from '../../plugin/test/support/v2-server.mjs'
import { SERVERS } from '../servers.mjs'

/** `calls`: the one harmless tool call our kit may make (--call), as the matrix allows it. */
export const TARGETS = [
  { id: 'server-everything', era: 'legacy', start: startEverything, calls: SERVERS.find((s) => s.id === 'server-everything').calls },
  { id: 'v2-modern-only', era: 'modern', start: () => startV2Http({ legacy: 'reject' }), calls: [{ name: 'echo', arguments: { text: 'hello' } }] },
  { id: 'v2-dual-era', era: 'dual', start: () => startV2Http({ legacy: 'stateless' }), calls: [{ name: 'echo', arguments: { text: 'hello' } }] },
]

async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Resolves once the port accepts connections; rejects when the child exits first or after `ms`. */
async function listening(port, child, ms = 30_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server-everything exited with code ${child.exitCode} before listening`)
    const ok = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket.end() && true)).on('error', () => resolve(false))
    })
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`server-everything: not listening on ${port} after ${ms} ms`)
}

async function startEverything(root) {
  const setup = SERVERS.find((s) => s.id === 'server-everything').http
  const port = await freePort()
  const fill = (value) => value.replaceAll('{port}', String(port))
  const argv = setup.argv.map((part, i) => (i === 0 ? join(root, part) : fill(part)))
  const env = Object.fromEntries(Object.entries(setup.env ?? {}).map(([k, v]) => [k, fill(v)]))
  // A process group of its own, so the stop takes any child it spawned with it.
  const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ...env }, stdio: 'ignore', detached: true })
  const stop = async () => {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  try {
    await listening(port, child)
  } catch (error) {
    await stop()
    throw error
  }
  return { url: `http://127.0.0.1:${port}${setup.path}`, close: stop }
}
