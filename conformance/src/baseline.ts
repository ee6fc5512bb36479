/**
 * The expected-failures baseline. Parsing and applying are pure; `loadBaseline` is the only I/O.
 *
 *   expectedFailures:
 *     - server:http/session-delete                 # "<suite id>:<check id>"
 *     - id: server:tools/call-unknown-tool
 *       reason: SDK 1.x answers unknown tools with an isError result
 *
 * A listed check that fails is expected and does not fail the run. A listed check that passes,
 * warns, is skipped or no longer exists is stale and fails the run. When a suite id repeats (a
 * client scenario run over two transports), the entry covers every run of it. Entries for suites that were
 * not part of the run (e.g. client scenarios during a server-only run) are not judged.
 *
 * `formatBaseline` writes the other way (`--write-baseline`): a run's failures as a file of this
 * shape, which parses back to the same entries.
 */
import { stat } from 'node:fs/promises'
import { InputFileError, readInputFile } from '@mcp-bridge/process'
import { Document, parse } from 'yaml'
import type { SuiteResult } from './model.ts'

export interface BaselineEntry {
  id: string
  reason?: string
}

export type Parsed = { ok: true; entries: BaselineEntry[] } | { ok: false; error: string }
/** `missing`: the file does not exist, which a reader fixes by creating one rather than by editing it. */
export type Loaded = Parsed | { ok: false; error: string; missing: true }

export function parseBaseline(text: string): Parsed {
  let doc: unknown
  try {
    doc = parse(text)
  } catch (error) {
    return { ok: false, error: `not valid YAML: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (doc === null || doc === undefined) return { ok: true, entries: [] }
  if (typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, error: 'expected a mapping with an "expectedFailures" list' }
  const unknown = Object.keys(doc).filter((key) => key !== 'expectedFailures')
  if (unknown.length) return { ok: false, error: `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (only "expectedFailures" is allowed)` }
  const list = (doc as { expectedFailures?: unknown }).expectedFailures ?? []
  if (!Array.isArray(list)) return { ok: false, error: '"expectedFailures" must be a list' }
  const entries: BaselineEntry[] = []
  for (const [index, item] of list.entries()) {
    const entry = toEntry(item)
    if (typeof entry === 'string') return { ok: false, error: `expectedFailures[${index}]: ${entry}` }
    if (!entries.some((e) => e.id === entry.id)) entries.push(entry)
  }
  return { ok: true, entries }
}

function toEntry(item: unknown): BaselineEntry | string {
  if (typeof item === 'string') return validId(item) ? { id: item } : `"${item}" is not "<suite id>:<check id>"`
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'expected a string or a mapping with "id"'
  const { id, reason, ...rest } = item as Record<string, unknown>
  // A YAML slip like `- server: tools/x` parses as a mapping; say how to fix it.
  if (id === undefined && Object.keys(rest).length === 1) {
    const [key, value] = Object.entries(rest)[0] ?? []
    return `did you mean "${String(key)}:${String(value)}"? Write the entry without a space after the colon, or quote it`
  }
  if (Object.keys(rest).length) return `unknown key ${Object.keys(rest).join(', ')}`
  if (typeof id !== 'string' || !validId(id)) return '"id" must be "<suite id>:<check id>"'
  if (reason !== undefined && typeof reason !== 'string') return '"reason" must be a string'
  return reason === undefined ? { id } : { id, reason }
}

function validId(id: string): boolean {
  const colon = id.indexOf(':')
  return colon > 0 && colon < id.length - 1
}

export interface BaselineOutcome {
  suites: SuiteResult[]
  /** Entries whose check no longer fails (or no longer exists). */
  stale: string[]
}

/** Marks expected failures (on copies) and finds stale entries. */
export function applyBaseline(suites: SuiteResult[], entries: BaselineEntry[]): BaselineOutcome {
  const expected = new Set<string>()
  const stale: string[] = []
  const ran = new Set(suites.map((s) => s.id))
  for (const entry of entries) {
    const colon = entry.id.indexOf(':')
    const suiteId = entry.id.slice(0, colon)
    const checkId = entry.id.slice(colon + 1)
    if (!ran.has(suiteId)) continue
    // A suite id can repeat (one client scenario per transport): the entry covers every run of it.
    const statuses = suites.filter((s) => s.id === suiteId).flatMap((s) => s.checks.filter((c) => c.id === checkId).map((c) => c.status))
    if (statuses.includes('fail')) expected.add(entry.id)
    // An error says nothing about the target, so the entry is neither confirmed nor stale.
    else if (!statuses.includes('error')) stale.push(entry.id)
  }
  const marked = suites.map((suite) => ({
    ...suite,
    checks: suite.checks.map((check) => (check.status === 'fail' && expected.has(`${suite.id}:${check.id}`) ? { ...check, expected: true } : check)),
  }))
  return { suites: marked, stale }
}

/** A baseline is a list of check ids: thousands of them fit in far less. */
const MAX_BASELINE_BYTES = 4 * 1024 * 1024

export async function loadBaseline(path: string): Promise<Loaded> {
  let text: string
  try {
    // A FIFO, a device or a directory is refused at once (a FIFO would block the read for good).
    text = await readInputFile(path, { maxBytes: MAX_BASELINE_BYTES, what: 'file' })
  } catch (error) {
    const missing = await stat(path).then(
      () => false,
      (cause: { code?: unknown }) => cause.code === 'ENOENT',
    )
    if (missing) return { ok: false, error: `${path} does not exist`, missing: true }
    return { ok: false, error: error instanceof InputFileError ? error.message : `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}` }
  }
  const parsed = parseBaseline(text)
  return parsed.ok ? parsed : { ok: false, error: `${path}: ${parsed.error}` }
}

/**
 * Every check that failed in these suites, once each, as baseline entries in a stable order; a
 * reason given in `previous` for the same id is kept. Errors are not failures: an entry needs a
 * verdict behind it.
 */
export function failuresOf(suites: SuiteResult[], previous: BaselineEntry[] = []): BaselineEntry[] {
  const ids = new Set(suites.flatMap((suite) => suite.checks.filter((check) => check.status === 'fail').map((check) => `${suite.id}:${check.id}`)))
  return [...ids].sort().map((id) => {
    const reason = previous.find((entry) => entry.id === id)?.reason
    return reason === undefined ? { id } : { id, reason }
  })
}

/** A baseline file with these entries, under a comment that says where it came from; ids are quoted where YAML needs it. */
export function formatBaseline(entries: BaselineEntry[], origin: string): string {
  const doc = new Document({ expectedFailures: entries.map((entry) => (entry.reason === undefined ? entry.id : { id: entry.id, reason: entry.reason })) })
  doc.commentBefore = [
    ` ${origin}: ${entries.length === 1 ? 'the 1 check' : `the ${entries.length} checks`} that failed.`,
    ' A listed check that fails is expected; one that no longer fails makes the run fail, so remove',
    ' it then. Add a reason to an entry with "- id: <suite>:<check>" and "reason: ...".',
  ].join('\n')
  return doc.toString({ lineWidth: 0 })
}
