import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult, SpecRef } from '../model.ts'
import type { ToolView } from './adapter.ts'
import { checkCancellations } from './cancellation.ts'

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
}

/** Pure: the checks every scenario gets, whatever it is about. */
export function checkInvariants(run: RunObservations): CheckResult[] {
  return [namesValid(run), oneNamePerIdentity(run), noPartialGeneration(run), rawNamesOnWire(run), handshake(run), checkCancellations(run.wire), disposedToolsGone(run), noOrphans(run)]
}

/** Pure: the invariants a wire log alone can judge (for a log recorded outside the kit's runs). */
export function checkWireInvariants(wire: WireEntry[]): CheckResult[] {
  const run = { snapshots: [], wire, afterDispose: [], orphans: [] }
  return [rawNamesOnWire(run), handshake(run), checkCancellations(wire)]
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
 * exposes in any generation). A tool left out because its batch failed half way is what this
 * catches, never-exposed or not.
 */
function noPartialGeneration(run: RunObservations): CheckResult {
  const generations = servedGenerations(run.wire)
  const quarantined = new Set(run.quarantined ?? [])
  const whole = new Set(generations.map((g) => [...new Set(g.filter((n) => !quarantined.has(n)))].sort().join('\0')))
  const exposed = run.snapshots.map((s) => s.map((t) => t.rawName).sort().join('\0')).filter((key) => key !== '')
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
    { ref: 'seed 000 §Tool execution' },
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

/**
 * Every session opens with initialize (a known revision) and the client's initialized
 * notification before any other request; ping is allowed before it. Over HTTP each initialize
 * opens a new session, so the rule restarts at every initialize.
 */
export function handshakeProblems(wire: WireEntry[]): string[] {
  const problems: string[] = []
  let phase: 'none' | 'initializing' | 'ready' = 'none'
  for (const { dir, msg } of wire) {
    if (dir !== 'recv' || !('method' in msg)) continue
    const m = msg as { method: string; id?: unknown; params?: { protocolVersion?: unknown } }
    if (m.method === 'initialize') {
      phase = 'initializing'
      const version = m.params?.protocolVersion
      if (typeof version !== 'string' || !KNOWN_REVISIONS.includes(version)) problems.push(`initialize offered protocolVersion ${JSON.stringify(version)}, no published revision`)
    } else if (m.method === 'notifications/initialized') {
      phase = 'ready'
    } else if (m.id !== undefined && !BEFORE_INITIALIZE.has(m.method) && phase !== 'ready') {
      problems.push(`${m.method} was sent ${phase === 'none' ? 'before initialize' : 'before notifications/initialized'}`)
    }
  }
  return [...new Set(problems)]
}

function handshake(run: RunObservations): CheckResult {
  const initializes = run.wire.filter(({ dir, msg }) => dir === 'recv' && (msg as { method?: string }).method === 'initialize').length
  const requests = run.wire.filter(({ dir, msg }) => dir === 'recv' && 'method' in msg).length
  return check(
    'invariant/handshake',
    'Each session starts with initialize (a published revision), then notifications/initialized, before any other request',
    handshakeProblems(run.wire),
    `${initializes} handshakes, each complete before other requests`,
    {
      ref: 'MCP 2025-11-25 §basic/lifecycle (Initialization): "After successful initialization, the client MUST send an initialized notification"; "The client SHOULD NOT send requests other than pings before the server has responded to the initialize request"',
      url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization',
    },
    { count: requests, none: 'the server received no request' },
  )
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

function noOrphans(run: RunObservations): CheckResult {
  return check(
    'invariant/no-orphans',
    'No server process outlives the client',
    run.orphans.map((pid) => `pid ${pid} still alive after dispose`),
    `all ${run.processes ?? 0} server processes the client started (children included) have exited`,
    { ref: 'MCP 2025-11-25 §basic/lifecycle Shutdown (stdio)', url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#shutdown' },
    { count: run.processes ?? 0, none: run.noProcesses ?? 'no server process reported its start' },
  )
}
