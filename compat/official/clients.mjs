// `node compat/official/clients.mjs [REVISION]` (after `npm run official` has installed and built):
// the official suite's client scenarios of one frozen requirement set (default 2025-11-25), each
// run on its own (`client --scenario S --spec-version REVISION`; the suite's own --requirements run
// starts them all at once, and on a 2-core machine some then fail to connect) against the plugin
// through client-wrapper.mjs. Writes out/clients/<revision>/ (the suite's reports) and
// out/clients/<revision>.md (pass or fail per scenario, scored or not). Exit 2 when the suite
// could not run, else 0.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureNode22 } from '../../scripts/node22.mjs'
import { here, officialCli, requirementSet, REVISIONS, run } from './official-cli.mjs'

const log = (line) => process.stderr.write(`official clients: ${line}\n`)
const revision = process.argv[2] ?? REVISIONS[0]
if (!REVISIONS.includes(revision)) {
  log(`the revision must be one of ${REVISIONS.join(', ')}, not ${revision}`)
  process.exit(2)
}
const wrapper = join(here, 'client-wrapper.mjs')

/** The checks.json of one scenario's report directory (auth scenarios nest under auth/). */
function checksOf(dir, scenario) {
  const [parent, leaf] = scenario.includes('/') ? [join(dir, scenario.split('/')[0]), scenario.split('/')[1]] : [dir, scenario]
  let entries = []
  try {
    entries = readdirSync(parent).filter((entry) => entry.startsWith(`${leaf}-`) && /-\d{4}-\d\d-\d\dT[\d-]+Z$/.test(entry) && statSync(join(parent, entry)).isDirectory())
  } catch {
    return undefined
  }
  const latest = entries.sort().at(-1)
  try {
    return latest ? JSON.parse(readFileSync(join(parent, latest, 'checks.json'), 'utf8')) : undefined
  } catch {
    return undefined
  }
}

async function main() {
  const node22 = ensureNode22({ log })
  const { scored, unscored } = await requirementSet(node22, revision, 'client')
  const dir = join(here, 'out', 'clients', revision)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const rows = []
  for (const scenario of [...scored, ...unscored]) {
    log(`${scenario}`)
    // --force: the suite skips a scenario it does not score at the revision (an extension) otherwise.
    const force = scored.includes(scenario) ? [] : ['--force']
    await run(node22, [officialCli, 'client', '--command', `${process.execPath} ${wrapper}`, '--scenario', scenario, '--spec-version', revision, ...force, '-o', dir])
    const checks = checksOf(dir, scenario)
    const failing = (checks ?? []).filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${String(c.errorMessage ?? c.details?.message ?? '').replace(/\s+/g, ' ').slice(0, 160)}`)
    const verdict = !checks ? 'no result' : failing.length ? 'fail' : 'pass'
    rows.push({ scenario, scored: scored.includes(scenario), verdict, passed: (checks ?? []).filter((c) => c.status === 'SUCCESS').length, failing })
  }
  const count = (list) => `${list.filter((r) => r.verdict === 'pass').length} of ${list.length}`
  const lines = [
    `# Official client scenarios (${revision}) against the mcp-bridge plugin`,
    '',
    `Scored: ${count(rows.filter((r) => r.scored))} pass; not scored: ${count(rows.filter((r) => !r.scored))} pass.`,
    '',
    '| scenario | scored | verdict | checks passed | first failing check |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.scored ? 'yes' : 'no'} | ${r.verdict} | ${r.passed} | ${(r.failing[0] ?? '').replaceAll('|', '\\|')} |`),
    '',
  ]
  writeFileSync(join(here, 'out', 'clients', `${revision}.md`), lines.join('\n'))
  log(`scored ${count(rows.filter((r) => r.scored))} pass; wrote out/clients/${revision}.md`)
  return rows.some((r) => r.verdict === 'no result') ? 2 : 0
}

process.exitCode = await main().catch((error) => {
  log(error instanceof Error ? error.message : String(error))
  return 2
})
