// `npm run official`: the official MCP conformance suite (pinned in package.json, installed here
// with npm ci) and our kit's server mode, side by side, against the servers of targets.mjs. The
// official suite runs under the pinned Node 22 (scripts/node22.mjs; it needs Node >= 22), once per
// revision it has a frozen requirement set for; our kit runs once per target with --spec-version all.
// Writes compat/official/out/<target>/{official-<rev>,ours}/ (raw reports), out/side-by-side.json
// and out/side-by-side.md (the line-up: lineup.mjs). Exit 0 when every run gave a verdict, 2 when
// one could not run (a server that did not start, a runner that crashed): the servers' own failures
// and the disagreements are the point, not an error.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureNode22 } from '../../scripts/node22.mjs'
import { lineUp, renderMarkdown } from './lineup.mjs'
import { here, OFFICIAL_PACKAGE, officialCli, requirementSet, REVISIONS, root, run } from './official-cli.mjs'
import { TARGETS } from './targets.mjs'

const out = join(here, 'out')
const ourCli = join(root, 'conformance', 'bin', 'mcp-conformance.js')

const log = (line) => process.stderr.write(`official: ${line}\n`)

const pkgVersion = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version

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
  // Only this run's own output: out/clients/ is clients.mjs's.
  for (const target of TARGETS) rmSync(join(out, target.id), { recursive: true, force: true })
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
  for (const revision of REVISIONS) sets[revision] = await requirementSet(node22, revision, 'server')
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
