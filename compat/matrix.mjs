// `npm run matrix [-- <server id>...]`: installs compat/ (its own lockfile) when needed, runs the
// server checks against every set-up in servers.mjs (or those of the servers named), and writes
// docs/COMPATIBILITY.md. Each server's record is kept in compat/table-data.json, so naming servers
// re-runs only their rows and the table keeps the others as they were judged. Exits 1 if any check
// could not run (a harness error), so the table never hides a kit fault; the servers' own failures
// are the point. Exit 2 on a usage error.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packagesOf, provenance } from '../scripts/provenance.mjs'
import { mergeRecords, recordsJson } from '../scripts/table-evidence.mjs'
import { TABLES } from '../scripts/verdict-digest.mjs'
import { renderCompatibility, transportRecord } from './render.mjs'
import { reproduction } from './repro.mjs'
import { SERVERS, serverKey } from './servers.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = join(here, '..')
const OPTIONS = { requestTimeoutMs: 15_000, startupTimeoutMs: 60_000 }
const MODERN = '2026-07-28'

// A server is named by its key (servers.mjs), or its whole id when that is quoted through to here.
const wanted = process.argv.slice(2)
const named = (server) => wanted.includes(serverKey(server)) || wanted.includes(server.id)
const unknown = wanted.filter((arg) => !SERVERS.some((s) => serverKey(s) === arg || s.id === arg))
if (unknown.length) {
  process.stderr.write(`matrix: unknown server ${unknown.map((id) => `"${id}"`).join(', ')}; the servers are ${SERVERS.map(serverKey).join(', ')}\n`)
  process.exit(2)
}

if (!existsSync(join(here, 'node_modules'))) {
  process.stderr.write('matrix: installing compat/ (npm ci --ignore-scripts)\n')
  const done = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' })
  if (done.status !== 0) process.exit(2)
}
const { runServerSuite } = await import(join(root, 'conformance/dist/server/run.js'))
// Read before any server runs: the rows name the code that judged them.
const judgedBy = provenance('servers')

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

async function runSetup(server, transport) {
  const setup = server[transport]
  const dir = mkdtempSync(join(tmpdir(), 'mcp-compat-'))
  writeFileSync(join(dir, 'hello.txt'), 'hello\n')
  const vars = { dir, port: transport === 'http' ? await freePort() : 0 }
  const argv = fillDeep(setup.argv, vars).map((part, i) => (i === 0 ? join(here, part) : part))
  const env = fillDeep(setup.env ?? {}, vars)
  const calls = fillDeep(server.calls ?? [], vars)
  const options = { calls, ...OPTIONS }
  process.stderr.write(`matrix: ${server.id} over ${transport}\n`)
  let suite
  // The era: a second run pinned to the modern revision asks server/discover (no tool is called).
  let modern
  const speaksModern = async (target) => (await runServerSuite(target, { ...OPTIONS, calls: [], revision: MODERN })).revision?.supported === true
  if (transport === 'stdio') {
    const target = { kind: 'stdio', command: process.execPath, args: argv, env, cwd: dir }
    suite = await runServerSuite(target, options)
    modern = await speaksModern(target)
  } else {
    const child = spawn(process.execPath, argv, { cwd: dir, env: { ...process.env, ...env }, stdio: 'ignore', detached: true })
    try {
      await listening(vars.port, child)
      const target = { kind: 'http', url: `http://${setup.host ?? '127.0.0.1'}:${vars.port}${setup.path}`, headers: {} }
      suite = await runServerSuite(target, options)
      modern = await speaksModern(target)
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
  rmSync(dir, { recursive: true, force: true })
  return transportRecord({ transport, suite, dir, modern, command: reproduction(server, transport, OPTIONS) })
}

const records = []
for (const server of SERVERS.filter((s) => !wanted.length || named(s))) {
  const transports = []
  for (const transport of ['stdio', 'http']) if (server[transport]) transports.push(await runSetup(server, transport))
  const packages = packagesOf(server.package, here)
  const version = packages[0].slice(packages[0].lastIndexOf('@') + 1)
  records.push({ server: server.id, version, provenance: { row: serverKey(server), packages, node: process.version, ...judgedBy }, transports })
}

// The servers not re-run keep their stored record; a server no longer listed drops out.
const store = join(here, 'table-data.json')
const kept = existsSync(store) ? JSON.parse(readFileSync(store, 'utf8')).servers : []
const table = mergeRecords(kept, records, SERVERS.map((s) => s.id), (record) => record.server)
writeFileSync(store, `${recordsJson({ servers: table }, 6)}\n`)
writeFileSync(join(root, TABLES.servers.file), renderCompatibility(table, TABLES.servers))

const errors = records.flatMap((record) => record.transports.flatMap((run) => run.checks.filter((check) => check.status === 'error').map((check) => `${record.server} (${run.transport}) ${check.id}: ${check.message}`)))
const missing = SERVERS.filter((s) => !table.some((record) => record.server === s.id)).map((s) => s.id)
process.stderr.write(`matrix: ${records.length} servers run, ${TABLES.servers.file} written${missing.length ? `; never run, not in the table: ${missing.join(', ')}` : ''}${errors.length ? `; harness errors:\n  ${errors.join('\n  ')}` : ''}\n`)
process.exit(errors.length ? 1 : 0)
