// `npm run official`: the official MCP conformance suite (pinned in package.json, installed here
// with npm ci) and our kit's server mode, side by side, against the servers of targets.mjs. The
// official suite runs under the pinned Node 22 (scripts/node22.mjs; it needs Node >= 22), once per
// revision it has a frozen requirement set for; our kit runs once per target with --spec-version all.
// Writes compat/official/out/<target>/{official-<rev>,ours}/ (raw reports), out/side-by-side.json
// and out/side-by-side.md (the line-up: lineup.mjs). Exit 0 when every run gave a verdict, 2 when
// one could not run (a server that did not start, a runner that crashed): the servers' own failures
// and the disagreements are the point, not an error.
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureNode22 } from '../../scripts/node22.mjs'
import { lineUp, renderMarkdown } from './lineup.mjs'
import { TARGETS } from './targets.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = join(here, '..', '..')
const out = join(here, 'out')
const REVISIONS = ['2025-11-25', '2026-07-28']
const OFFICIAL_PACKAGE = '@modelcontextprotocol/conformance'
const officialCli = join(here, 'node_modules', OFFICIAL_PACKAGE, 'dist', 'index.js')
const ourCli = join(root, 'conformance', 'bin', 'mcp-conformance.js')
/** A bound on one whole runner: the official suite's per-scenario timeout is 30 s, ours per request 10 s. */
const RUN_BOUND_MS = 15 * 60_000

const log = (line) => process.stderr.write(`official: ${line}\n`)

/** Runs a command to its end (or the bound), output captured; never throws for a non-zero exit. */
function run(command, args, { cwd = root } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }, RUN_BOUND_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: -1, stdout, stderr: `${stderr}${error.message}` })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? signal, stdout, stderr })
    })
  })
}

const pkgVersion = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version

/** The scenario names a revision scores, and those it runs but never scores, from `list --requirements`. */
async function requirementSet(node, revision) {
  const listed = await run(node, [officialCli, 'list', '--requirements', revision, '--server'])
  if (listed.code !== 0) throw new Error(`official list --requirements ${revision} exited ${listed.code}: ${listed.stderr.slice(0, 500)}`)
  const scored = []
  const unscored = []
  let into
  for (const line of listed.stdout.split('\n')) {
    if (/^Server scenarios/.test(line)) into = scored
    else if (/^(Client|Authorization)/.test(line)) into = undefined
    else if (/^Run and reported, but never scored/.test(line)) into = unscored
    const item = /^\s+- (\S+)(?: \[(\w+)\])?/.exec(line)
    if (item && into && (into === scored || item[2] === 'server')) into.push(item[1])
  }
  return { scored, unscored }
}

/** The official suite's checks, one array per scenario, from the directories of one -o run. */
function officialResults(dir) {
  const scenarios = {}
  for (const entry of readdirSync(dir)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1]
    if (!name) continue
    try {
      scenarios[name] = JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8'))
    } catch {
      scenarios[name] = undefined
    }
  }
  return scenarios
}

async function main() {
  const node22 = ensureNode22({ log })
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const versions = {
    official: pkgVersion(join(here, 'node_modules', OFFICIAL_PACKAGE)),
    ours: pkgVersion(join(root, 'conformance')),
    serverEverything: pkgVersion(join(root, 'node_modules', '@modelcontextprotocol', 'server-everything')),
    sdkServer: pkgVersion(join(root, 'node_modules', '@modelcontextprotocol', 'server')),
    node22: (await run(node22, ['--version'])).stdout.trim(),
    node: process.version,
  }
  // The kit runs from dist, built from the working tree: say when that differs from the commit.
  const dirty = (await run('git', ['status', '--porcelain', '--', 'conformance/src', 'process/src'])).stdout.trim()
  const head = (await run('git', ['rev-parse', '--short', 'HEAD'])).stdout.trim() || 'unknown (not a git checkout)'
  const commit = head + (dirty ? ' (with uncommitted changes to the kit)' : '')
  const sets = {}
  for (const revision of REVISIONS) sets[revision] = await requirementSet(node22, revision)
  const failures = []
  const targets = []
  for (const target of TARGETS) {
    log(`${target.id}: starting`)
    let server
    try {
      server = await target.start(root)
    } catch (error) {
      failures.push(`${target.id}: the server did not start: ${error.message}`)
      continue
    }
    const record = { id: target.id, era: target.era, url: server.url, official: {}, ours: undefined }
    try {
      for (const revision of REVISIONS) {
        const dir = join(out, target.id, `official-${revision}`)
        log(`${target.id}: official suite, --requirements ${revision}`)
        const done = await run(node22, [officialCli, 'server', '--url', server.url, '--requirements', revision, '-o', dir])
        writeFileSync(join(out, target.id, `official-${revision}.log`), done.stdout + done.stderr)
        const scenarios = officialResults(dir)
        if (![0, 1].includes(done.code) || !Object.keys(scenarios).length) failures.push(`${target.id}: the official suite at ${revision} exited ${done.code} with ${Object.keys(scenarios).length} scenario results`)
        record.official[revision] = scenarios
      }
      const dir = join(out, target.id, 'ours')
      log(`${target.id}: our kit, --spec-version all`)
      const calls = target.calls.flatMap((call) => ['--call', `${call.name}=${JSON.stringify(call.arguments)}`])
      const done = await run(process.execPath, [ourCli, 'server', '--url', server.url, '--spec-version', 'all', ...calls, '--report-dir', dir])
      writeFileSync(join(out, target.id, 'ours.log'), done.stdout + done.stderr)
      if (![0, 1].includes(done.code)) failures.push(`${target.id}: our kit exited ${done.code}`)
      try {
        record.ours = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))
      } catch (error) {
        failures.push(`${target.id}: our kit wrote no results.json (${error.message})`)
      }
    } finally {
      await server.close()
    }
    targets.push(record)
  }
  const lined = lineUp({ targets, sets, revisions: REVISIONS })
  const meta = { date: new Date().toISOString().slice(0, 10), commit, versions }
  writeFileSync(join(out, 'side-by-side.json'), JSON.stringify({ ...meta, sets, ...lined }, null, 2) + '\n')
  writeFileSync(join(out, 'side-by-side.md'), renderMarkdown({ ...meta, ...lined }))
  log(`wrote ${join(out, 'side-by-side.md')}: ${lined.disagreements.length} disagreement(s)`)
  for (const failure of failures) log(`could not run: ${failure}`)
  return failures.length ? 2 : 0
}

process.exitCode = await main().catch((error) => {
  log(error instanceof Error ? error.message : String(error))
  return 2
})
