// The official suite's client scenarios of one frozen requirement set, each run on its own against
// the plugin through client-wrapper.mjs (`client --scenario S --spec-version REVISION`: the suite's
// own --requirements run starts them all at once, and on a 2-core machine some then fail to
// connect). Shared by clients.mjs (the report) and test/official (the referee in CI).
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { here, officialCli, requirementSet, run } from './official-cli.mjs'

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

/**
 * Runs every client scenario the revision scores (and, with `unscored`, those it runs but never
 * scores) and returns one row per scenario: `verdict` is pass, fail (a check failed) or
 * 'no result' (the suite wrote no checks). `node` is the Node >= 22 binary the suite needs.
 */
export async function runClientScenarios(node, revision, { dir, unscored: withUnscored = true, log = () => {} }) {
  const { scored, unscored } = await requirementSet(node, revision, 'client')
  mkdirSync(dir, { recursive: true })
  const rows = []
  for (const scenario of [...scored, ...(withUnscored ? unscored : [])]) {
    log(scenario)
    // --force: the suite skips a scenario it does not score at the revision (an extension) otherwise.
    const force = scored.includes(scenario) ? [] : ['--force']
    await run(node, [officialCli, 'client', '--command', `${process.execPath} ${wrapper}`, '--scenario', scenario, '--spec-version', revision, ...force, '-o', dir])
    const checks = checksOf(dir, scenario)
    const failing = (checks ?? []).filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${String(c.errorMessage ?? c.details?.message ?? '').replace(/\s+/g, ' ').slice(0, 160)}`)
    const verdict = !checks ? 'no result' : failing.length ? 'fail' : 'pass'
    rows.push({ scenario, scored: scored.includes(scenario), verdict, passed: (checks ?? []).filter((c) => c.status === 'SUCCESS').length, failing })
  }
  return rows
}
