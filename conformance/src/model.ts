/**
 * The result model every part of the kit produces and every report writer consumes.
 * `results.json` is this model serialised; bump FORMAT_VERSION on any breaking change.
 */
export const FORMAT_VERSION = 1

/**
 * pass: the requirement holds. fail: a MUST is violated. warn: a SHOULD is violated. skip: not
 * applicable (the server did not declare the feature), nothing to judge, or not testable because
 * a prerequisite failed (the message names the check that reports it). error: the check could not
 * run (a harness problem, or the user's input, not a verdict on the target).
 */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip' | 'error'
export const CHECK_STATUSES = ['pass', 'fail', 'warn', 'skip', 'error'] as const satisfies readonly CheckStatus[]

export interface SpecRef {
  /** Short citation, e.g. "MCP 2025-11-25 ping: MUST" or "mcp-bridge naming contract …". */
  ref: string
  url?: string
  /** Server checks: the force of the sentence (MUST, SHOULD, SCHEMA, NONE, …), which sets the status of a breach. */
  keyword?: string
  /** Server checks: the sentence enforced, as the spec states it. */
  quote?: string
}

export interface CheckResult {
  /** Stable slug, unique within its suite: `area/what-is-checked`. */
  id: string
  title: string
  status: CheckStatus
  /** Why the status: what was expected and what was seen. */
  message: string
  spec?: SpecRef
  /** Structured evidence for the report (kept small). */
  details?: unknown
  /** JSON-RPC messages that show the behaviour, in wire order. */
  wire?: unknown[]
  /** Baseline bookkeeping: a failure listed in the baseline file. */
  expected?: boolean
}

export interface SuiteResult {
  /** Scenario id for client runs; `server` (plus target) for server runs. */
  id: string
  title: string
  kind: 'client' | 'server'
  /** What was judged: the client adapter's name, or the server command / URL. */
  target: string
  transport?: 'stdio' | 'http'
  /** Client runs: the fixture's protocol era, when not legacy (the scenario's `eras`). */
  era?: 'modern' | 'dual'
  /** Client runs: the protocol eras the client spoke, read from the wire (client/eras.ts clientEras). */
  spoke?: Array<'legacy' | 'modern'>
  checks: CheckResult[]
  durationMs: number
  /** Client runs: what happened on the wire and around it, for the report's sequence diagram. */
  transcript?: RunTranscript
}

/**
 * A client scenario run as the report draws it. Optional and additive: a report without it (an
 * older results.json, a server run) simply has no diagram.
 */
export interface RunTranscript {
  /** The run's transcript as text, as `scenarios/<id>.<transport>.snap` holds it (bounded). */
  text: string
  /** In time order. Times are ms since the run started, as the runner observed them. */
  events: TimelineEvent[]
}

export type TimelineEvent =
  /** A normalised JSON-RPC message (ids renumbered c1/s1 as in the text), bounded like wire excerpts. */
  | { at: number; kind: 'message'; from: 'client' | 'server'; message: unknown }
  /** The server's process (stdio) or listener (HTTP) started or ended. */
  | { at: number; kind: 'process'; what: 'start' | 'exit'; text: string }
  /**
   * The runner began a phase: 0 is the client's start, 1..n the scenario's steps, and the one
   * marked `end` the end of the run (expectations judged, client disposed, invariants). `call` is
   * the call's number, as in `expect/call-N`; `failed` marks the step that could not go on.
   */
  | { at: number; kind: 'step'; step: number; text: string; call?: number; end?: true; failed?: true }
  /** A line the client logged (debug lines left out). */
  | { at: number; kind: 'log'; text: string }
  /** Where events were left out to keep the transcript bounded (a storm of notifications, say). */
  | { at: number; kind: 'omitted'; count: number }

export interface StatusCounts {
  pass: number
  fail: number
  warn: number
  skip: number
  error: number
}

export interface RunReport {
  formatVersion: typeof FORMAT_VERSION
  tool: { name: string; version: string }
  startedAt: string
  durationMs: number
  suites: SuiteResult[]
  summary: StatusCounts
  /** Baseline entries that no longer fail: a stale baseline fails the run. */
  staleBaseline: string[]
  exitCode: 0 | 1 | 2
}

export const EXIT = { pass: 0, failures: 1, usage: 2 } as const

/**
 * A client run's name beside its scenario: its transport, and its protocol era when not legacy
 * ("stdio.modern"). Every report names runs this way, so two eras of one scenario never share a
 * cell, a row or a comparison key.
 */
export function runLabel(transport: string, era?: string): string {
  return era === undefined || era === 'legacy' ? transport : `${transport}.${era}`
}

/** A suite's run label (runLabel); undefined for a suite with no transport. */
export function suiteRunLabel(suite: { transport?: string; era?: string }): string | undefined {
  return suite.transport === undefined ? undefined : runLabel(suite.transport, suite.era)
}

export function countStatuses(suites: SuiteResult[]): StatusCounts {
  const counts: StatusCounts = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 }
  for (const suite of suites) for (const check of suite.checks) counts[check.status]++
  return counts
}
