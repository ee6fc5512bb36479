/**
 * Pure: conformance/docs/CLIENTS.md from one record per client. A record is what a client's run
 * leaves (clients/table-data.json keeps them), so re-running one client rewrites its column and
 * leaves the others as they were judged. The cell of a run is the kit's own (cellOf); every cell
 * that is not a pass is numbered and followed, under the matrix, by the one-line command that
 * reproduces it against that client alone and each sentence it breached, quoted.
 */
import { runLabel, type CheckResult, type SpecRef, type SuiteResult } from '../conformance/src/model.ts'
import { CELL_SYMBOLS as SYMBOL, cellOf, type Cell } from '../conformance/src/client/table.ts'
import { isModernRequest, metaVersion } from '../conformance/src/client/eras.ts'
import { cell as tableCell, code, renderProvenance, sentence, type RowProvenance, type TableEntry } from '../scripts/table-evidence.mjs'

export interface ClientRecord {
  id: string
  /** Column heading, e.g. "@ai-sdk/mcp". */
  name: string
  /** How the driver configures the client. */
  about: string
  /** The `--driver` value of a reproduction, as shell text run from the repository root; none for the built-in adapter. */
  driver?: string
  /** The protocol revisions the client asked for in its initialize requests. */
  revisions: string[]
  /** The protocol eras it spoke across its runs (conformance/src/client/table.ts erasOf); absent in records made before eras. */
  era?: string
  provenance: RowProvenance
  runs: RunRecord[]
}

export interface RunRecord {
  scenario: string
  transport: 'stdio' | 'http'
  /** The fixture's protocol era when not legacy (a scenario's `eras`). */
  era?: 'modern' | 'dual'
  cell: Cell
  /** The checks that did not hold (fail, warn, error), as the kit reported them. */
  notes: Array<{ status: CheckResult['status']; id: string; message: string; spec?: SpecRef }>
  /** Why the scenario did not apply, when it did not. */
  na?: string
}

const NOTED = new Set<CheckResult['status']>(['fail', 'warn', 'error'])

/** Pure: what a table needs of one client's suites; the rest of a suite (wire, transcript) stays in its reports. */
export function runsOf(suites: SuiteResult[]): RunRecord[] {
  return suites.map((suite) => {
    const na = suite.checks.find((c) => c.id === 'applies/scenario')
    return {
      scenario: suite.id,
      transport: suite.transport ?? 'stdio',
      ...(suite.era ? { era: suite.era } : {}),
      cell: cellOf(suite)!,
      notes: suite.checks.filter((c) => NOTED.has(c.status)).map((c) => ({ status: c.status, id: c.id, message: c.message, ...(c.spec ? { spec: c.spec } : {}) })),
      ...(na ? { na: na.message.replace(/^not applicable: /, '') } : {}),
    }
  })
}

/**
 * Pure: the protocol revisions a client asked for, from its runs' transcripts: the version of each
 * initialize request (legacy), and the version each modern request names in its `_meta`.
 */
export function revisionsOf(suites: SuiteResult[]): string[] {
  const asked = new Set<string>()
  for (const suite of suites)
    for (const event of suite.transcript?.events ?? []) {
      if (event.kind !== 'message' || event.from !== 'client') continue
      const message = event.message as { method?: unknown; params?: { protocolVersion?: unknown } }
      if (message?.method === 'initialize' && typeof message.params?.protocolVersion === 'string') asked.add(message.params.protocolVersion.slice(0, 40))
      else if (isModernRequest(message)) asked.add(metaVersion(message)!.slice(0, 40))
    }
  return [...asked].sort()
}

/** The one-line command that reproduces a run against this client alone (from the repository root). */
export function reproduction(record: Pick<ClientRecord, 'driver'>, run: Pick<RunRecord, 'scenario' | 'transport'>): string {
  const driver = record.driver ? ` --driver "${record.driver}"` : ''
  return `npx mcp-conformance client${driver} --scenario ${run.scenario} --transport ${run.transport}`
}

const key = (run: Pick<RunRecord, 'scenario' | 'transport' | 'era'>) => `${run.scenario} [${runLabel(run.transport, run.era)}]`
const revisions = (record: ClientRecord) => (record.revisions.length ? record.revisions.join(', ') : '—')

export function formatClients(records: ClientRecord[], text: { intro: string; findings: string; table: TableEntry }): string {
  const rows = [...new Set(records.flatMap((r) => r.runs.map(key)))].sort()
  const find = (record: ClientRecord, row: string) => record.runs.find((run) => key(run) === row)
  const lines = [text.intro.trimEnd(), '', ...renderProvenance(records.map((r) => r.provenance), text.table)]

  lines.push('', '## Clients', '', '| client | era spoken | revisions asked for | package and configuration |', '| --- | --- | --- | --- |')
  for (const r of records) lines.push(`| ${r.name} | ${r.era ?? '—'} | ${revisions(r)} | ${tableCell(r.about, 2000)} |`)

  const cells = Object.keys(SYMBOL) as Cell[]
  lines.push('', '## Totals', '', `| client | ${cells.join(' | ')} |`, `| --- | ${cells.map(() => '---:').join(' | ')} |`)
  for (const r of records) lines.push(`| ${r.name} | ${cells.map((c) => rows.filter((row) => find(r, row)?.cell === c).length).join(' | ')} |`)

  // Numbered in the order the notes below list them: client by client, row by row.
  const numbers = new Map<RunRecord, number>()
  for (const r of records) for (const row of rows) if (isNoted(find(r, row))) numbers.set(find(r, row)!, numbers.size + 1)
  const shown = (run: RunRecord | undefined) => (!run ? ' ' : numbers.has(run) ? `${SYMBOL[run.cell]} [${numbers.get(run)}](#n${numbers.get(run)})` : SYMBOL[run.cell])
  lines.push('', '## Matrix', '', 'A number after a cell leads to its note below: the command that reproduces it and the sentences it breached.')
  lines.push('', `| scenario [transport] | ${records.map((r) => r.name).join(' | ')} |`, `| --- | ${records.map(() => '---').join(' | ')} |`)
  for (const row of rows) lines.push(`| ${row} | ${records.map((r) => shown(find(r, row))).join(' | ')} |`)

  lines.push(
    '',
    '## Failures and warnings',
    '',
    'One note per cell that is not a pass: the command that reproduces it against that client alone (run from the',
    'repository root after `npm ci && npm run build && npm ci --prefix clients`; `node scripts/node22.mjs` prints the',
    'pinned Node 22 the driven clients run under), then each check that did not hold, what the kit saw and the',
    'sentence it enforces.',
  )
  for (const r of records) {
    const noted = rows.map((row) => find(r, row)).filter(isNoted)
    lines.push('', `### ${r.name}`, '')
    if (!noted.length) lines.push('None.')
    for (const run of noted) {
      lines.push(`- <a id="n${numbers.get(run)}"></a>**${numbers.get(run)}** · ${run.cell} · ${key(run)}: ${code(reproduction(r, run))}`)
      for (const note of run.notes) lines.push(`  - ${note.status} \`${note.id}\`: ${tableCell(note.message)}${note.spec ? ` ${sentence(note.spec)}` : ''}`)
    }
  }

  lines.push('', '## Not applicable', '', 'Scenarios a client is not judged on, and why (the same for every driven client unless its driver declares the feature).', '')
  const reasons = new Map<string, string>()
  for (const r of records) for (const run of r.runs) if (run.na) reasons.set(run.scenario, run.na)
  for (const [id, reason] of [...reasons].sort()) lines.push(`- ${id}: ${tableCell(reason, 1000)}`)
  return `${lines.join('\n')}\n\n${text.findings.trimEnd()}\n`
}

const isNoted = (run: RunRecord | undefined): run is RunRecord => run !== undefined && (run.cell === 'fail' || run.cell === 'warn' || run.cell === 'error')
