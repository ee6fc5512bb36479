// `node compat/official/clients.mjs [REVISION]` (after `npm run official` has installed and built):
// the official suite's client scenarios of one frozen requirement set (default 2025-11-25) against
// the plugin (client-scenarios.mjs). Writes out/clients/<revision>/ (the suite's reports) and
// out/clients/<revision>.md (pass or fail per scenario, scored or not). Exit 2 when the suite
// could not run, else 0.
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureNode22 } from '../../scripts/node22.mjs'
import { runClientScenarios } from './client-scenarios.mjs'
import { here, REVISIONS } from './official-cli.mjs'

const log = (line) => process.stderr.write(`official clients: ${line}\n`)
const revision = process.argv[2] ?? REVISIONS[0]
if (!REVISIONS.includes(revision)) {
  log(`the revision must be one of ${REVISIONS.join(', ')}, not ${revision}`)
  process.exit(2)
}

async function main() {
  const node22 = ensureNode22({ log })
  const dir = join(here, 'out', 'clients', revision)
  rmSync(dir, { recursive: true, force: true })
  const rows = await runClientScenarios(node22, revision, { dir, log })
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
