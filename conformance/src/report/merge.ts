/**
 * Pure: the suites of another run, made ready to stand beside this run's in one report. The kit
 * cannot run every host in its own process (the DeepSeek harness needs Node 22 and its own
 * packages), so a run there writes its results.json and `--merge LABEL=FILE` brings it in.
 *
 * Each merged suite keeps its checks, and with them the `expected` marks its own baseline gave;
 * its id gets the label as a prefix (`dsh/clean-discovery`), so that neither baseline can match the
 * other's suites, and its stale baseline entries stay stale here. The report is untrusted input
 * like any other: it is checked for shape here, and redacted and escaped like every suite.
 */
import { redactSecrets } from '@mcp-bridge/process'
import { CHECK_STATUSES, type CheckResult, type RunReport, type SuiteResult } from '../model.ts'
import { redactValue } from './redact.ts'

export const MERGE_LABEL = /^[a-z0-9][a-z0-9-]{0,31}$/

export interface MergedRun {
  suites: SuiteResult[]
  stale: string[]
}

/**
 * The other run's suites, labelled; or, when a field the reports read has another shape than this
 * kit writes, why not (one line, naming the field: `suites[0].checks[2].spec.ref is not a string`).
 * Checked before the run, so that a bad file is a usage error and not a crash after it.
 */
export function mergeRun(label: string, report: RunReport): MergedRun | string {
  const problem = reportProblem(report)
  if (problem) return `cannot be merged: ${problem}`
  return {
    suites: report.suites.map((suite) => ({ ...suite, id: `${label}/${suite.id}`, checks: suite.checks.map(redactSpec) })),
    stale: (report.staleBaseline ?? []).map((entry) => `${label}/${entry}`),
  }
}

/**
 * A check's citation is the kit's own text in its own runs, and kept verbatim there (redact.ts);
 * in another run's file it is as untrusted as the rest, and redacted like it.
 */
function redactSpec(check: CheckResult): CheckResult {
  return check.spec === undefined ? check : { ...check, spec: redactValue(check.spec, redactSecrets) }
}

type Fields = Record<string, unknown>

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value)
const optional = (value: unknown, test: (value: unknown) => boolean) => value === undefined || test(value)
const isString = (value: unknown) => typeof value === 'string'
const isBoolean = (value: unknown) => typeof value === 'boolean'
const oneOf =
  (...values: unknown[]) =>
  (value: unknown) =>
    values.includes(value)

/** `[field, test, what it must be]`: the shape of an object, as the reports read it. */
type Shape = Array<[string, (value: unknown) => boolean, string]>

const SUITE: Shape = [
  ['title', isString, 'a string'],
  ['kind', oneOf('client', 'server'), '"client" or "server"'],
  ['target', isString, 'a string'],
  ['durationMs', isNumber, 'a number'],
  ['transport', (v) => optional(v, oneOf('stdio', 'http')), '"stdio", "http" or absent'],
]
const CHECK: Shape = [
  ['title', isString, 'a string'],
  ['message', isString, 'a string'],
  ['status', oneOf(...CHECK_STATUSES), `one of ${CHECK_STATUSES.join(', ')}`],
  // A truthy non-boolean ("no") would hide a failure as expected.
  ['expected', (v) => optional(v, isBoolean), 'a boolean or absent'],
  ['spec', (v) => optional(v, isObject), 'an object or absent'],
  ['wire', (v) => optional(v, Array.isArray), 'an array or absent'],
]
const SPEC: Shape = [
  ['ref', isString, 'a string'],
  ['url', (v) => optional(v, isString), 'a string or absent'],
  ['keyword', (v) => optional(v, isString), 'a string or absent'],
  ['quote', (v) => optional(v, isString), 'a string or absent'],
]
const REVISION: Shape = [
  ['requested', isString, 'a string'],
  ['negotiated', (v) => optional(v, isString), 'a string or absent'],
  ['supported', isBoolean, 'a boolean'],
]
const TRANSCRIPT: Shape = [
  ['text', isString, 'a string'],
  ['events', Array.isArray, 'an array'],
]
const EVENT: Record<string, Shape> = {
  message: [['from', oneOf('client', 'server'), '"client" or "server"']],
  process: [
    ['what', oneOf('start', 'exit'), '"start" or "exit"'],
    ['text', isString, 'a string'],
  ],
  step: [
    ['step', isNumber, 'a number'],
    ['text', isString, 'a string'],
    ['call', (v) => optional(v, isNumber), 'a number or absent'],
    ['end', (v) => optional(v, isBoolean), 'a boolean or absent'],
    ['failed', (v) => optional(v, isBoolean), 'a boolean or absent'],
  ],
  log: [['text', isString, 'a string']],
  omitted: [['count', isNumber, 'a number']],
}

function shapeProblem(value: Fields, shape: Shape, path: string): string | undefined {
  for (const [field, test, what] of shape) if (!test(value[field])) return `${path}.${field} is not ${what}`
  return undefined
}

/** The first field the reports would read in another shape than they expect, by its path; undefined when there is none. */
function reportProblem(report: RunReport): string | undefined {
  const stale: unknown = report.staleBaseline
  if (stale !== undefined && !(Array.isArray(stale) && stale.every(isString))) return 'staleBaseline is not an array of strings'
  for (const [i, suite] of report.suites.entries()) {
    const problem = suiteProblem(suite as unknown as Fields, `suites[${i}]`)
    if (problem) return `${problem} (suite ${JSON.stringify(suite.id.slice(0, 80))})`
  }
  return undefined
}

function suiteProblem(suite: Fields, path: string): string | undefined {
  const problem = shapeProblem(suite, SUITE, path)
  if (problem) return problem
  for (const [j, check] of (suite.checks as Fields[]).entries()) {
    const at = `${path}.checks[${j}]`
    const bad = shapeProblem(check, CHECK, at) ?? (isObject(check.spec) ? shapeProblem(check.spec, SPEC, `${at}.spec`) : undefined)
    if (bad) return bad
  }
  if (suite.revision !== undefined) {
    if (!isObject(suite.revision)) return `${path}.revision is not an object or absent`
    const bad = shapeProblem(suite.revision, REVISION, `${path}.revision`)
    if (bad) return bad
  }
  if (suite.transcript === undefined) return undefined
  if (!isObject(suite.transcript)) return `${path}.transcript is not an object or absent`
  const bad = shapeProblem(suite.transcript, TRANSCRIPT, `${path}.transcript`)
  if (bad) return bad
  for (const [k, event] of (suite.transcript.events as unknown[]).entries()) {
    const at = `${path}.transcript.events[${k}]`
    if (!isObject(event)) return `${at} is not an object`
    if (!isNumber(event.at)) return `${at}.at is not a number`
    const shape = typeof event.kind === 'string' && Object.hasOwn(EVENT, event.kind) ? EVENT[event.kind] : undefined
    if (!shape) return `${at}.kind is not one of ${Object.keys(EVENT).join(', ')}`
    const wrong = shapeProblem(event, shape, at)
    if (wrong) return wrong
  }
  return undefined
}
