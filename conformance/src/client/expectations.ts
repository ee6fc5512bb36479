import type { HttpEntry, WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult, SpecRef } from '../model.ts'
import type { CallOutcome, ToolView } from './adapter.ts'
import { gapAllowance } from './gap-bound.ts'
import { BRIDGE_RULES } from './rules.ts'
import type { CallExpectation, Scenario } from './scenario.ts'

/** Pure: does one call's outcome meet its expectation? Returns the mismatches. */
export function callMismatches(outcome: CallOutcome, expected: CallExpectation): string[] {
  const problems: string[] = []
  if (outcome.unanswered) return [outcome.unanswered]
  const text = outcome.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
  const isError = expected.isError ?? (expected.code !== undefined ? true : undefined)
  if (isError !== undefined && outcome.isError !== isError) problems.push(`expected ${isError ? 'an error' : 'success'}, got ${outcome.isError ? `error ${outcome.code}` : 'success'}: ${text.slice(0, 200)}`)
  if (expected.code !== undefined && outcome.code !== expected.code) problems.push(`expected code ${expected.code}, got ${outcome.code ?? 'none'}`)
  if (expected.text !== undefined && !new RegExp(expected.text).test(text)) problems.push(`text does not match /${expected.text}/: ${JSON.stringify(text.slice(0, 300))}`)
  if (expected.notText !== undefined && new RegExp(expected.notText).test(text)) problems.push(`text matches /${expected.notText}/ but must not`)
  const images = outcome.content.filter((b) => b.type === 'image').length
  if (expected.images !== undefined && images !== expected.images) problems.push(`expected ${expected.images} image references, got ${images}`)
  if (expected.structured !== undefined) {
    const structured = (outcome.value as { structuredContent?: unknown } | undefined)?.structuredContent
    if (JSON.stringify(structured) !== JSON.stringify(expected.structured)) problems.push(`structuredContent is ${JSON.stringify(structured)}`)
  }
  return problems
}

export interface EndState {
  tools: ToolView[]
  logs: string[]
  state: string
  wire: WireEntry[]
  attachments: number
  duplicateRejected?: boolean
  /** The error the refused second instance raised. */
  duplicateMessage?: string
  /** HTTP: the requests the fixture answered; undefined over stdio. */
  http?: Array<HttpEntry['http']>
  /** stdio: the server processes (as they reported themselves) still running; undefined over HTTP. */
  serversRunning?: number[]
}

/** The levels a quiet run does not log (the adapter's lines start with their level). */
const QUIET = /^\[(warn|warning|error)\]/

/** How bounds are counted; the default counts every message received. */
export interface CountOptions {
  /**
   * List methods whose bounds hold for each discovery (a request without a cursor and the cursor
   * requests that follow it) rather than for the whole run: a client may list more than once.
   */
  perDiscovery?: string[]
}

/** Records one check: passed when there are no problems, else failed with them joined. */
type Add = (id: string, title: string, problems: string[], pass: string) => void

/** Pure: the scenario's end-of-run expectations as checks. */
export function checkExpectations(scenario: Scenario, end: EndState, options: CountOptions = {}): CheckResult[] {
  const spec: SpecRef = scenario.spec[0]!
  const checks: CheckResult[] = []
  const add: Add = (id, title, problems, pass) =>
    checks.push({ id, title, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : pass, spec })
  checkToolView(scenario, end, add)
  checkLogs(scenario, end, add)
  if (scenario.expect.state) add('expect/state', `The client ends ${scenario.expect.state}`, end.state === scenario.expect.state ? [] : [`state is ${end.state}`], `state ${end.state}`)
  checkCounts(scenario, end, options, add, checks)
  checks.push(...checkOAuth(scenario, end.http))
  checkEnd(scenario, end, add, checks)
  return checks
}

/** Pure: the tools the client exposes, their descriptions and their public names. */
function checkToolView(scenario: Scenario, end: EndState, add: Add): void {
  const { expect } = scenario
  const raw = end.tools.map((t) => t.rawName).sort()
  if (expect.tools) {
    const wanted = [...expect.tools].sort()
    add('expect/tools', 'The client exposes exactly the expected tools', JSON.stringify(raw) === JSON.stringify(wanted) ? [] : [`expected ${JSON.stringify(wanted)}, got ${JSON.stringify(raw)}`], `${raw.length} tools as expected`)
  }
  if (expect.descriptions) {
    const problems = Object.entries(expect.descriptions).flatMap(([rawName, pattern]) => {
      const tool = end.tools.find((t) => t.rawName === rawName)
      if (!tool) return [`${JSON.stringify(rawName)} is not exposed`]
      return new RegExp(pattern).test(tool.description) ? [] : [`${JSON.stringify(rawName)} is described ${JSON.stringify(tool.description.slice(0, 200))}, which does not match /${pattern}/`]
    })
    add('expect/descriptions', 'Each tool is the version the behaviour says (its description)', problems, `${Object.keys(expect.descriptions).length} descriptions as expected`)
  }
  if (expect.publicNames) {
    const problems = Object.entries(expect.publicNames).flatMap(([rawName, name]) => {
      const actual = end.tools.find((t) => t.rawName === rawName)?.name
      return actual === name ? [] : [`${JSON.stringify(rawName)} is ${actual ?? 'not exposed'}, expected ${name}`]
    })
    add('expect/public-names', 'Public names are exactly as specified', problems, 'every public name as specified')
  }
}

/** Pure: the log lines the client must and must not write. */
function checkLogs(scenario: Scenario, end: EndState, add: Add): void {
  const { expect } = scenario
  if (expect.logs === undefined && !expect.noLogs.length) return
  const logs = expect.logs ?? []
  const missing = logs.filter((pattern) => !end.logs.some((line) => new RegExp(pattern).test(line))).map((p) => `no log line matches /${p}/`)
  const forbidden = expect.noLogs.filter((pattern) => end.logs.some((line) => new RegExp(pattern).test(line))).map((p) => `a log line matches /${p}/`)
  // `logs: []` is a statement too: a run that should be quiet logs no warning and no error.
  const quiet = expect.logs?.length === 0 ? end.logs.filter((line) => QUIET.test(line)).map((line) => `expected no warning or error, logged ${JSON.stringify(line.slice(0, 200))}`) : []
  const pass = expect.logs?.length === 0 ? `no warning or error among ${end.logs.length} log lines` : `${logs.length} patterns found, ${expect.noLogs.length} absent`
  add('expect/logs', 'The client logs what it should, and nothing it should not', [...missing, ...forbidden, ...quiet.slice(0, 3)], pass)
}

/** Pure: bounds on the messages the server received and the HTTP statuses it answered. */
function checkCounts(scenario: Scenario, end: EndState, options: CountOptions, add: Add, checks: CheckResult[]): void {
  const { expect } = scenario
  for (const [method, stated] of Object.entries(expect.received)) {
    // A max that follows the burst the fixture sent (gap-bound.ts), stated in the message either way.
    const derived = stated.perGap && stated.max !== undefined ? gapAllowance(end.wire, stated.max, stated.perGap, scenario.client) : undefined
    const bounds = { min: stated.min, max: derived?.max ?? stated.max }
    const why = derived ? ` (${derived.said})` : ''
    if (options.perDiscovery?.includes(method)) {
      const walks = discoveries(end.wire, method)
      const said = `${walks.length} ${walks.length === 1 ? 'discovery' : 'discoveries'} of ${walks.join(', ') || 0} requests`
      const problems = (walks.length ? walks : [0]).flatMap((count, i) => outOfBounds(`discovery ${i + 1} sent ${count} ${method}`, count, bounds).map((p) => p + why))
      add(`expect/received/${method}`, `Each discovery sends ${method} a bounded number of times`, problems, said + why)
      continue
    }
    const count = end.wire.filter(({ dir, msg }) => dir === 'recv' && (msg as { method?: string }).method === method).length
    add(`expect/received/${method}`, `The server receives ${method} a bounded number of times`, outOfBounds(`received ${count}`, count, bounds).map((p) => p + why), `received ${count}${why}`)
  }
  for (const [key, bounds] of Object.entries(expect.httpStatus)) {
    const [status, method] = [key.slice(0, 3), key.length > 3 ? key.slice(4) : undefined]
    const id = `expect/http-status/${key}`
    const title = method === undefined ? `The server answers HTTP ${status} a bounded number of times` : `The server answers ${method} with HTTP ${status} a bounded number of times`
    if (end.http === undefined) {
      checks.push({ id, title, status: 'skip', message: 'nothing to judge: not an HTTP run', spec: scenario.spec[0]! })
      continue
    }
    const count = end.http.filter((request) => String(request.status) === status && (method === undefined || request.rpc === method)).length
    const answered = `answered ${count}${method === undefined ? '' : ` to ${method}`}`
    add(id, title, outOfBounds(answered, count, bounds), answered)
  }
}

/** Pure: what is left at the end: server processes, stored attachments, a refused duplicate. */
function checkEnd(scenario: Scenario, end: EndState, add: Add, checks: CheckResult[]): void {
  const { expect } = scenario
  if (expect.running !== undefined) {
    const running = end.serversRunning
    if (running === undefined) checks.push({ id: 'expect/running', title: 'The client runs the expected number of server processes', status: 'skip', message: 'nothing to judge: over HTTP the client starts no server process', spec: scenario.spec[0]! })
    else {
      // The stdio shutdown sequence is a SHOULD: a client's breach warns, a bridge's fails as its own rule (verdicts.ts).
      const problems = running.length === expect.running ? [] : [`${running.length} server processes running (pids ${running.join(', ') || 'none'}), expected ${expect.running}`]
      checks.push({ id: 'expect/running', title: 'The client runs the expected number of server processes', status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : `${running.length} server processes running`, spec: BRIDGE_RULES['expect/running'] })
    }
  }
  if (expect.attachments !== undefined) {
    add('expect/attachments', 'The attachment store holds the expected number of files', end.attachments === expect.attachments ? [] : [`${end.attachments} files stored, expected ${expect.attachments}`], `${end.attachments} files`)
  }
  if (expect.duplicateServerNameRejected !== undefined) {
    const ok = end.duplicateRejected === expect.duplicateServerNameRejected
    add('expect/duplicate-server-name', 'A second instance with the same serverName is refused', ok ? [] : [`second instance ${end.duplicateRejected ? 'was refused' : 'loaded'}`], 'refused at load')
  }
  if (expect.duplicateServerNameMessage !== undefined) {
    const message = end.duplicateMessage ?? ''
    const ok = new RegExp(expect.duplicateServerNameMessage).test(message)
    add('expect/duplicate-server-name-message', 'The refusal says what to fix', ok ? [] : [`the refusal said ${JSON.stringify(message.slice(0, 300))}, which does not match /${expect.duplicateServerNameMessage}/`], `the refusal said ${JSON.stringify(message.slice(0, 300))}`)
  }
}

/**
 * Pure: the OAuth expectations, from the fixture's HTTP log (its authorization server logs each
 * token request's grant and outcome, its endpoint each request's credential kind; never a value).
 */
function checkOAuth(scenario: Scenario, http: EndState['http']): CheckResult[] {
  const spec: SpecRef = scenario.spec[0]!
  const bounded = (id: string, title: string, count: number | undefined, bounds: { min?: number; max?: number }, unit: string): CheckResult => {
    if (count === undefined) return { id, title, status: 'skip', message: 'nothing to judge: not an HTTP run', spec }
    const problems = outOfBounds(`${count} ${unit}`, count, bounds)
    return { id, title, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : `${count} ${unit}`, spec }
  }
  const tokens = http?.flatMap((request) => (request.token ? [request.token] : []))
  const byKey = (key: string) =>
    tokens?.filter((token) => key === 'all' || key === token.grant || key === `${token.grant}/${token.outcome}`).length
  const endpoint = http?.filter((request) => request.bearer !== undefined)
  return [
    ...Object.entries(scenario.expect.tokenRequests).map(([key, bounds]) =>
      bounded(`expect/token-requests/${key}`, `The authorization server receives ${key === 'all' ? 'token requests' : key} a bounded number of times`, byKey(key), bounds, 'token requests'),
    ),
    ...Object.entries(scenario.expect.bearer).map(([kind, bounds]) =>
      bounded(`expect/bearer/${kind}`, `Requests to the MCP endpoint with credential "${kind}" are bounded`, endpoint?.filter((request) => request.bearer === kind).length, bounds!, 'requests'),
    ),
  ]
}

/** Pure: how many requests each discovery sent (a request without a cursor starts one, its cursor requests continue it). */
function discoveries(wire: WireEntry[], method: string): number[] {
  const walks: number[] = []
  for (const { dir, msg } of wire) {
    const m = msg as { method?: string; params?: { cursor?: unknown } }
    if (dir !== 'recv' || m.method !== method) continue
    if (m.params?.cursor === undefined || !walks.length) walks.push(1)
    else walks[walks.length - 1]!++
  }
  return walks
}

/** Pure: what breaks a min/max bound, each problem worded from `what` (e.g. "received 3"). */
function outOfBounds(what: string, count: number, bounds: { min?: number; max?: number }): string[] {
  return [
    ...(bounds.min !== undefined && count < bounds.min ? [`${what}, expected at least ${bounds.min}`] : []),
    ...(bounds.max !== undefined && count > bounds.max ? [`${what}, expected at most ${bounds.max}`] : []),
  ]
}
