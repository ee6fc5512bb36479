// `npm run matrix`: installs compat/ (its own lockfile) when needed, runs the server checks against
// every set-up in servers.mjs, and writes docs/COMPATIBILITY.md. Exits 1 if any check could not run
// (a harness error), so the table never hides a kit fault; the servers' own failures are the point.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderCompatibility } from './render.mjs'
import { SERVERS } from './servers.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = join(here, '..')

if (!existsSync(join(here, 'node_modules'))) {
  process.stderr.write('matrix: installing compat/ (npm ci --ignore-scripts)\n')
  const done = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' })
  if (done.status !== 0) process.exit(2)
}
const { runServerSuite } = await import(join(root, 'conformance/dist/server/run.js'))
const kit = JSON.parse(readFileSync(join(root, 'conformance/package.json'), 'utf8')).version

const fill = (value, vars) => (typeof value === 'string' ? value.replaceAll('{dir}', vars.dir).replaceAll('{port}', String(vars.port)) : value)
const fillDeep = (value, vars) => JSON.parse(JSON.stringify(value), (_, v) => fill(v, vars))

async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Resolves once the port accepts connections, or rejects after `ms`. */
async function listening(port, child, ms = 30_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode} before listening`)
    const ok = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket.end() && true)).on('error', () => resolve(false))
    })
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`not listening on ${port} after ${ms} ms`)
}

function versionOf(name) {
  return JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version
}

const rows = []
for (const server of SERVERS) {
  for (const transport of ['stdio', 'http']) {
    const setup = server[transport]
    if (!setup) continue
    const dir = mkdtempSync(join(tmpdir(), 'mcp-compat-'))
    writeFileSync(join(dir, 'hello.txt'), 'hello\n')
    const vars = { dir, port: transport === 'http' ? await freePort() : 0 }
    const argv = fillDeep(setup.argv, vars).map((part, i) => (i === 0 ? join(here, part) : part))
    const env = fillDeep(setup.env ?? {}, vars)
    const calls = fillDeep(server.calls ?? [], vars)
    const options = { calls, requestTimeoutMs: 15_000, startupTimeoutMs: 60_000 }
    process.stderr.write(`matrix: ${server.id} over ${transport}\n`)
    let suite
    if (transport === 'stdio') {
      suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: argv, env, cwd: dir }, options)
    } else {
      const child = spawn(process.execPath, argv, { cwd: dir, env: { ...process.env, ...env }, stdio: 'ignore', detached: true })
      try {
        await listening(vars.port, child)
        suite = await runServerSuite({ kind: 'http', url: `http://${setup.host ?? '127.0.0.1'}:${vars.port}${setup.path}`, headers: {} }, options)
      } catch (error) {
        suite = { checks: [{ id: 'harness/start', title: 'the server started', status: 'error', message: String(error?.message ?? error) }] }
      } finally {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // already gone
        }
      }
    }
    rows.push({ server: server.id, package: server.package, version: versionOf(server.package), transport, suite, dir })
    rmSync(dir, { recursive: true, force: true })
  }
}

writeFileSync(join(root, 'docs/COMPATIBILITY.md'), renderCompatibility(rows, { kit }))
const errors = rows.flatMap((row) => row.suite.checks.filter((check) => check.status === 'error').map((check) => `${row.server} (${row.transport}) ${check.id}: ${check.message}`))
process.stderr.write(`matrix: ${rows.length} set-ups, docs/COMPATIBILITY.md written${errors.length ? `; harness errors:\n  ${errors.join('\n  ')}` : ''}\n`)
process.exit(errors.length ? 1 : 0)
