import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult, SpecRef } from '../model.ts'
import type { ToolView } from './adapter.ts'
import { checkCancellations } from './cancellation.ts'
import { BRIDGE_RULES, clientSpec, runRevision, type ClientRuleKey } from './rules.ts'
import { isModernRequest } from './eras.ts'

const NAME = /^[A-Za-z0-9_-]{1,64}$/
const SEED = { ref: 'seed 000 §Naming invariants' }

export interface RunObservations {
  snapshots: ToolView[][]
  wire: WireEntry[]
  /** The client's tools right after it was disposed. */
  afterDispose: ToolView[]
  /** Pids the client owned that were still alive after disposal settled. */
  orphans: number[]
  /** How many server processes (and their children) are known to have been started: the orphan check's subjects. */
  processes?: number
  /** Why no process can be known (over HTTP the fixture runs in the kit's own process). */
  noProcesses?: string
  /** Raw names the scenario expects the client never to expose, each invalid by itself (quarantined). */
  quarantined?: string[]
  /** Raw names of tools the client offers of its own beside the server's (the bridge's resource tools): no generation holds them. */
  ownTools?: string[]
}

/** Pure: the checks every scenario gets, whatever it is about. */
export function checkInvariants(run: RunObservations): CheckResult[] {
  const revision = runRevision(run.wire)
  return [namesValid(run), oneNamePerIdentity(run), noPartialGeneration(run), rawNamesOnWire(run), handshake(run, revision), checkEnvelope(run.wire, revision), checkCancellations(run.wire, revision), disposedToolsGone(run), noOrphans(run, revision)]
}

/** Pure: the invariants a wire log alone can judge (for a log recorded outside the kit's runs). */
export function checkWireInvariants(wire: WireEntry[]): CheckResult[] {
  const run = { snapshots: [], wire, afterDispose: [], orphans: [] }
  const revision = runRevision(wire)
  return [rawNamesOnWire(run), handshake(run, revision), checkEnvelope(wire, revision), checkCancellations(wire, revision)]
}

/**
 * A check over its subjects. No subjects (no names, no calls, no processes) is a skip that says
 * why: a pass must never claim a rule held over nothing.
 */
function check(id: string, title: string, problems: string[], passMessage: string, spec: SpecRef = SEED, subjects?: { count: number; none: string }): CheckResult {
  if (!problems.length && subjects && subjects.count === 0) return { id, title, status: 'skip', message: `nothing to judge: ${subjects.none}`, spec }
  return problems.length
    ? { id, title, status: 'fail', message: problems.slice(0, 5).join('; ') + (problems.length > 5 ? ` (+${problems.length - 5} more)` : ''), spec }
    : { id, title, status: 'pass', message: passMessage, spec }
}

function allTools(run: RunObservations): ToolView[] {
  return run.snapshots.flat()
}

function namesValid(run: RunObservations): CheckResult {
  const bad = [...new Set(allTools(run).map((t) => t.name))].filter((n) => !NAME.test(n))
  const names = new Set(allTools(run).map((t) => t.name)).size
  return check('invariant/names-valid', 'Every public name is [A-Za-z0-9_-]{1,64}', bad.map((n) => `invalid public name ${JSON.stringify(n)}`), `${names} names checked`, SEED, { count: names, none: 'the client never exposed a tool' })
}

/** One public name per identity, the same one all run long; no public name shared by two identities. */
function oneNamePerIdentity(run: RunObservations): CheckResult {
  const nameOf = new Map<string, string>()
  const rawOf = new Map<string, string>()
  const problems: string[] = []
  for (const snapshot of run.snapshots) {
    const seen = new Set<string>()
    for (const tool of snapshot) {
      if (seen.has(tool.rawName)) problems.push(`raw name ${JSON.stringify(tool.rawName)} exposed twice at once`)
      seen.add(tool.rawName)
      const known = nameOf.get(tool.rawName)
      if (known !== undefined && known !== tool.name) problems.push(`${JSON.stringify(tool.rawName)} was ${known}, later ${tool.name}`)
      nameOf.set(tool.rawName, tool.name)
      const holder = rawOf.get(tool.name)
      if (holder !== undefined && holder !== tool.rawName) problems.push(`${tool.name} stands for both ${JSON.stringify(holder)} and ${JSON.stringify(tool.rawName)}`)
      rawOf.set(tool.name, tool.rawName)
    }
  }
  return check('invariant/one-name-per-identity', 'One stable public name per tool identity', [...new Set(problems)], `${nameOf.size} identities, each with one stable name`, SEED, { count: nameOf.size, none: 'the client never exposed a tool' })
}

/** The tool lists the fixture served, one per completed pagination chain. */
export function servedGenerations(wire: WireEntry[]): string[][] {
  const cursorOf = new Map<unknown, string | undefined>()
  const generations: string[][] = []
  let current: string[] | undefined
  for (const { dir, msg } of wire) {
    const m = msg as Record<string, unknown>
    const params = m.params as Record<string, unknown> | undefined
    if (dir === 'recv' && m.method === 'tools/list') cursorOf.set(m.id, params?.cursor as string | undefined)
    if (dir !== 'send' || !('result' in m) || !cursorOf.has(m.id)) continue
    const result = m.result as { tools?: Array<{ name?: unknown }>; nextCursor?: unknown }
    if (cursorOf.get(m.id) === undefined) current = []
    cursorOf.delete(m.id)
    if (!current || !Array.isArray(result.tools)) continue
    current.push(...result.tools.map((t) => String(t?.name)))
    if (!result.nextCursor) {
      generations.push(current)
      current = undefined
    }
  }
  return generations
}

/**
 * Every list the client exposed is empty, or is one whole served generation: all of its tools, less
 * only those the scenario names as quarantined (a tool invalid by itself, which the client never
 * exposes in any generation), and beside the client's own tools the scenario names. A tool left out because its batch failed half way is what this
 * catches, never-exposed or not.
 */
function noPartialGeneration(run: RunObservations): CheckResult {
  const generations = servedGenerations(run.wire)
  const quarantined = new Set(run.quarantined ?? [])
  const whole = new Set(generations.map((g) => [...new Set(g.filter((n) => !quarantined.has(n)))].sort().join('\0')))
  const own = new Set(run.ownTools ?? [])
  const exposed = run.snapshots.map((s) => s.flatMap((t) => (own.has(t.rawName) ? [] : [t.rawName])).sort().join('\0')).filter((key) => key !== '')
  const problems = [...new Set(exposed.filter((key) => !whole.has(key)))].map((key) => `exposed [${key.split('\0').join(', ')}], which is no whole served generation`)
  if (!generations.length && exposed.length) problems.push('tools were exposed but no complete tools/list was served')
  return check('invariant/no-partial-generation', 'The client never exposes a partial generation', problems, `${exposed.length} tool lists against ${generations.length} served generations`, SEED, {
    count: exposed.length,
    none: 'the client never exposed a tool',
  })
}

function rawNamesOnWire(run: RunObservations): CheckResult {
  const served = new Set(servedGenerations(run.wire).flat())
  const called = run.wire
    .filter(({ dir, msg }) => dir === 'recv' && (msg as { method?: string }).method === 'tools/call')
    .map(({ msg }) => String(((msg as { params?: { name?: unknown } }).params ?? {}).name))
  const foreign = [...new Set(called.filter((name) => !served.has(name)))]
  return check(
    'invariant/raw-names-on-wire',
    'tools/call carries the raw MCP name, never the public name',
    foreign.map((n) => `tools/call named ${JSON.stringify(n)}, which the server never listed`),
    `${called.length} calls, all by raw name`,
    // No spec sentence asks a client to call only listed names (a server answers an unknown one
    // with an error): the bridge's own rule, information for any other client (verdicts.ts).
    BRIDGE_RULES['invariant/raw-names-on-wire'],
    { count: called.length, none: 'no tools/call reached the server' },
  )
}

/**
 * Requests allowed before the handshake completes: ping (the lifecycle allows it) and
 * server/discover, the stateless discovery probe of the revision after 2025-11-25, which a client
 * sends first and falls back from to initialize when the server does not know it.
 */
const BEFORE_INITIALIZE = new Set(['ping', 'server/discover'])

/** Protocol revisions a client may offer in initialize. */
export const KNOWN_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']

/** The lifecycle sentences a client's handshake is judged by (rules.ts; the same words in every revision the kit knows). */
const HANDSHAKE_RULES = { first: 'handshake/first', initialized: 'handshake/initialized', early: 'handshake/early', version: 'handshake/version' } as const satisfies Record<string, ClientRuleKey>

export type HandshakeRule = keyof typeof HANDSHAKE_RULES

/**
 * What the handshake showed: `must` breaks a MUST (fail), `should` a SHOULD NOT (warn), `info`
 * is what no sentence with a keyword governs (reported, never a verdict).
 */
export interface HandshakeProblem {
  level: 'must' | 'should' | 'info'
  rule: HandshakeRule
  text: string
}

const isRequest = (m: { id?: unknown; method?: unknown }) => m.id !== undefined && typeof m.method === 'string'

/**
 * Pure. Every session opens with initialize (the initialization phase MUST be the first
 * interaction), the client sends notifications/initialized (a notification: no id) once the
 * answer came, and no request other than ping before the server answered initialize (a SHOULD
 * NOT). A request after the answer but before the initialized notification breaks no sentence
 * with a keyword: it is reported as information. Over HTTP each initialize opens a new session,
 * so the rule restarts at every initialize. Messages the fixture could not accept as JSON-RPC are
 * invariant/jsonrpc's.
 */
export function handshakeProblems(wire: WireEntry[]): HandshakeProblem[] {
  const problems: HandshakeProblem[] = []
  let phase: 'none' | 'initializing' | 'answered' | 'ready' = 'none'
  let initId: string | undefined
  let earlyBeforeNotification: string[] = []
  let notificationWithId = false
  for (const { dir, msg, invalid } of wire) {
    if (invalid) continue
    const m = msg as { method?: string; id?: unknown; params?: { protocolVersion?: unknown }; result?: unknown; error?: unknown }
    if (dir === 'send') {
      // The server answered initialize: an error answer ends the attempt, a result opens the session.
      if (phase === 'initializing' && m.method === undefined && JSON.stringify(m.id) === initId) phase = m.result !== undefined ? 'answered' : 'none'
      continue
    }
    if (dir !== 'recv' || typeof m.method !== 'string') continue
    if (m.method === 'initialize' && isRequest(m)) {
      phase = 'initializing'
      initId = JSON.stringify(m.id)
      earlyBeforeNotification = []
      notificationWithId = false
      const version = m.params?.protocolVersion
      if (typeof version !== 'string') problems.push({ level: 'must', rule: 'version', text: `initialize offered protocolVersion ${JSON.stringify(version) ?? 'undefined'}, not a version string` })
      else if (!KNOWN_REVISIONS.includes(version)) problems.push({ level: 'info', rule: 'version', text: `initialize offered protocolVersion ${JSON.stringify(version)}, which is no published revision (the spec requires a version the client supports, and cannot be checked against a list)` })
    } else if (m.method === 'notifications/initialized' && m.id === undefined) {
      if (phase === 'answered' && earlyBeforeNotification.length) problems.push({ level: 'info', rule: 'initialized', text: `${earlyBeforeNotification.join(', ')} ${earlyBeforeNotification.length > 1 ? 'were' : 'was'} sent after the initialize answer but before notifications/initialized; no sentence with a keyword forbids that order` })
      earlyBeforeNotification = []
      if (phase === 'answered') phase = 'ready'
    } else if (m.method.startsWith('notifications/') && m.id !== undefined) {
      // A notification method with an id: invariant/jsonrpc reports it; it is not the initialized notification.
      if (m.method === 'notifications/initialized') notificationWithId = true
    } else if (isRequest(m) && !BEFORE_INITIALIZE.has(m.method) && phase !== 'ready' && !isModernRequest(m)) {
      if (phase === 'none') problems.push({ level: 'must', rule: 'first', text: `${m.method} was sent before initialize` })
      else if (phase === 'initializing') problems.push({ level: 'should', rule: 'early', text: `${m.method} was sent before the server had answered initialize` })
      else earlyBeforeNotification.push(m.method)
    }
  }
  // Requests after the answer and never an initialized notification: the MUST was not kept.
  if (phase === 'answered' && earlyBeforeNotification.length) problems.push({ level: 'must', rule: 'initialized', text: `${[...new Set(earlyBeforeNotification)].join(', ')} went on after the initialize answer, and the client never sent notifications/initialized${notificationWithId ? ' (its notifications/initialized carried an id, so it was a request: invariant/jsonrpc reports it)' : ''}` })
  const seen = new Set<string>()
  return problems.filter((p) => !seen.has(p.text) && seen.add(p.text))
}

/** A lifecycle sentence as a citation of the revision judged, with its keyword and words. */
function handshakeSpec(rule: HandshakeRule, revision: string): SpecRef {
  return clientSpec(HANDSHAKE_RULES[rule], revision)
}

function handshake(run: RunObservations, revision: string): CheckResult {
  const id = 'invariant/handshake'
  const title = 'Each session starts with initialize, then the client\'s notifications/initialized; no request but ping before the initialize answer'
  const initializes = run.wire.filter(({ dir, msg, invalid }) => !invalid && dir === 'recv' && (msg as { method?: string }).method === 'initialize').length
  const requests = run.wire.filter(({ dir, msg, invalid }) => !invalid && dir === 'recv' && 'method' in msg).length
  // A client that spoke 2026-07-28 only has no handshake to keep (basic/versioning: "There is no negotiation handshake").
  if (!initializes && run.wire.some(({ dir, msg, invalid }) => !invalid && dir === 'recv' && isModernRequest(msg))) {
    return { id, title, status: 'skip', message: 'not judged: the client spoke MCP 2026-07-28 only, which has no initialize handshake', spec: handshakeSpec('first', revision) }
  }
  const problems = handshakeProblems(run.wire)
  const list = (items: HandshakeProblem[]) => items.slice(0, 5).map((p) => p.text).join('; ') + (items.length > 5 ? ` (+${items.length - 5} more)` : '')
  const info = problems.filter((p) => p.level === 'info')
  for (const level of ['must', 'should'] as const) {
    const found = problems.filter((p) => p.level === level)
    if (!found.length) continue
    return { id, title, status: level === 'must' ? 'fail' : 'warn', message: list(found) + (info.length ? `; information: ${list(info)}` : ''), spec: handshakeSpec(found[0]!.rule, revision) }
  }
  if (!requests) return { id, title, status: 'skip', message: 'nothing to judge: the server received no request', spec: handshakeSpec('first', revision) }
  const passed = `${initializes} handshakes, each in order`
  return { id, title, status: 'pass', message: info.length ? `${passed}; information: ${list(info)}` : passed, spec: handshakeSpec(info.length ? info[0]!.rule : 'first', revision) }
}

/** The base protocol's sentences on a message's envelope (rules.ts: the same words in 2024-11-05 to 2025-11-25, on basic/messages in 2024-11-05). */
const ENVELOPE_RULES = { jsonrpc: 'envelope/jsonrpc', id: 'envelope/id', nullId: 'envelope/nullId', reused: 'envelope/reused', notificationId: 'envelope/notificationId' } as const satisfies Record<string, ClientRuleKey>

type EnvelopeRule = keyof typeof ENVELOPE_RULES

function envelopeSpec(rule: EnvelopeRule, revision: string): SpecRef {
  return clientSpec(ENVELOPE_RULES[rule], revision)
}

function parseBatch(raw: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(raw)
    return Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}

const isInteger = (id: unknown) => typeof id === 'number' && Number.isInteger(id)

/** What is wrong with one message the client sent, by the sentence it breaks; none when it is well-formed. */
function envelopeProblem(message: Record<string, unknown>, invalid: WireEntry['invalid'], where: string): { rule: EnvelopeRule; text: string } | undefined {
  if (invalid?.raw !== undefined) {
    const excerpt = invalid.raw.length > 80 ? `${invalid.raw.slice(0, 80)}…` : invalid.raw
    return { rule: 'jsonrpc', text: `${where}: ${invalid.reason}: ${JSON.stringify(excerpt)}` }
  }
  const method = typeof message.method === 'string' ? message.method : undefined
  const what = method ?? ('result' in message || 'error' in message ? 'a response' : 'a message')
  if (message.jsonrpc !== '2.0') return { rule: 'jsonrpc', text: `${where}: ${what} carried jsonrpc ${JSON.stringify(message.jsonrpc) ?? 'undefined'}, not "2.0"` }
  if (method?.startsWith('notifications/') && 'id' in message) return { rule: 'notificationId', text: `${where}: ${method} carried id ${JSON.stringify(message.id)}` }
  if (method !== undefined && message.id === null) return { rule: 'nullId', text: `${where}: request ${method} carried id null` }
  if (method !== undefined && 'id' in message && typeof message.id !== 'string' && !isInteger(message.id)) return { rule: 'id', text: `${where}: request ${method} carried id ${JSON.stringify(message.id)}, neither a string nor an integer` }
  if (invalid) return { rule: 'jsonrpc', text: `${where}: ${what} was refused by the fixture's JSON-RPC schema (${invalid.reason})` }
  return undefined
}

/**
 * Pure: every message the client sent is a JSON-RPC 2.0 message as the base protocol defines it
 * (jsonrpc "2.0"; a request's id a string or integer, never null, never one the client used
 * before in the session; a notification without an id). The fixture logs what its SDK refused
 * too (as sent, marked invalid), so a malformed request is judged here instead of looking like
 * silence. Over HTTP each initialize opens a new session, over stdio each server start; both
 * start with initialize, which starts the id bookkeeping afresh.
 */
export function checkEnvelope(wire: WireEntry[], revision: string = runRevision(wire)): CheckResult {
  const id = 'invariant/jsonrpc'
  const title = 'Every message the client sent is JSON-RPC 2.0: a string or integer id, unique in the session, on requests; none on notifications'
  const problems: Array<{ rule: EnvelopeRule; text: string }> = []
  let used = new Set<string>()
  let sent = 0
  let negotiated: string | undefined
  for (const [index, { dir, msg, invalid }] of wire.entries()) {
    if (dir === 'send') {
      const version = (msg as { result?: { protocolVersion?: unknown; serverInfo?: unknown } }).result
      if (typeof version?.protocolVersion === 'string' && version.serverInfo !== undefined) negotiated = version.protocolVersion
    }
    if (dir !== 'recv') continue
    sent++
    const message = msg as Record<string, unknown>
    const method = typeof message.method === 'string' ? message.method : undefined
    const where = `message ${index + 1}`
    const batch = invalid?.raw === undefined ? undefined : parseBatch(invalid.raw)
    if (batch) {
      // JSON-RPC 2.0 batches: part of 2024-11-05 and 2025-03-26 (which MUST receive them), gone from 2025-06-18 on.
      if (negotiated === undefined || negotiated >= '2025-06-18') problems.push({ rule: 'jsonrpc', text: `${where}: a JSON-RPC batch of ${batch.length}, which ${negotiated ?? 'the revision'} does not have (batching was removed in 2025-06-18)` })
      for (const item of batch) {
        const inner = typeof item === 'object' && item !== null && !Array.isArray(item) ? envelopeProblem(item as Record<string, unknown>, undefined, `${where} (in a batch)`) : { rule: 'jsonrpc' as const, text: `${where}: a batch item that is no JSON object` }
        if (inner) problems.push(inner)
      }
      continue
    }
    const problem = envelopeProblem(message, invalid, where)
    if (problem) {
      problems.push(problem)
      continue
    }
    if (method === undefined || !('id' in message)) continue
    // 2026-07-28 has no session to be unique in (basic/index: an id "MUST NOT match the ID of any
    // other request the sender has issued and not yet received a response for"); the wire marks
    // no connection boundary (a respawned server) to judge that by, so a modern request's id is
    // not judged here.
    if (isModernRequest(message)) continue
    if (method === 'initialize') used = new Set()
    const key = JSON.stringify(message.id)
    if (used.has(key)) problems.push({ rule: 'reused', text: `${where}: request ${method} reused id ${key}, already used in this session` })
    used.add(key)
  }
  if (problems.length) {
    const text = problems.slice(0, 5).map((p) => p.text).join('; ') + (problems.length > 5 ? ` (+${problems.length - 5} more)` : '')
    return { id, title, status: 'fail', message: text, spec: envelopeSpec(problems[0]!.rule, revision) }
  }
  if (!sent) return { id, title, status: 'skip', message: 'nothing to judge: the client sent nothing', spec: envelopeSpec('jsonrpc', revision) }
  return { id, title, status: 'pass', message: `${sent} messages, each well-formed, no request id reused within a session`, spec: envelopeSpec('jsonrpc', revision) }
}

function disposedToolsGone(run: RunObservations): CheckResult {
  return check(
    'invariant/disposed-tools-gone',
    'A disposed client leaves no tools behind',
    run.afterDispose.map((t) => `${t.name} still registered after dispose`),
    'no tools after dispose',
    { ref: 'seed 000 §Lifecycle' },
    { count: allTools(run).length, none: 'the client never exposed a tool, so disposal had none to remove' },
  )
}

function noOrphans(run: RunObservations, revision: string): CheckResult {
  return check(
    'invariant/no-orphans',
    'No server process outlives the client',
    run.orphans.map((pid) => `pid ${pid} still alive after dispose`),
    `all ${run.processes ?? 0} server processes the client started (children included) have exited`,
    // A SHOULD: a client's breach warns, a bridge's fails as its own rule (verdicts.ts).
    clientSpec('shutdown/stdio', revision),
    { count: run.processes ?? 0, none: run.noProcesses ?? 'no server process reported its start' },
  )
}
