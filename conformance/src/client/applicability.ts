import { atLeast, LATEST_REVISION } from '../server/spec.ts'
import type { CallExpectation, Scenario } from './scenario.ts'

/**
 * Which expectations hold for which client. Every MCP client is judged on what the spec asks of
 * every client (the wire: raw names, handshake, cancellation, bounded pagination and reconnects,
 * no requests after close, no orphans, no secrets passed on, isError surfaced). Only a bridge with
 * a naming contract like ours is judged on public names, registry generations, attachments, its
 * connection state and its log wording. Pure.
 */
export type ClientKind = 'bridge' | 'client'

/** Checks only a bridge is judged on, whatever the scenario, and why. */
export const BRIDGE_ONLY_CHECKS: Record<string, string> = {
  'expect/public-names': 'public names are a bridge naming contract; a client offers tools under names of its choosing',
  'expect/logs': 'log wording is each client\'s own',
  'expect/state': 'not every client exposes a connection state',
  'expect/attachments': 'an attachment store is a bridge feature',
  'expect/duplicate-server-name': 'server names are a bridge configuration',
  'invariant/names-valid': 'public names are a bridge naming contract',
  'invariant/one-name-per-identity': 'public names are a bridge naming contract',
  'invariant/no-partial-generation': 'whole generations are a bridge registry contract (seed 000); the spec says nothing of what a client shows of an unfinished pagination',
  'invariant/disposed-tools-gone': 'a tool registry that outlives the client is a bridge\'s',
  'transcript/snapshot': 'snapshots pin our plugin\'s model-facing rendering; a client\'s own rendering is not compared',
}

/** What a driver may declare its client does; scenarios about it apply only then. */
export const FEATURES = {
  listChanged: 'the client re-lists on notifications/tools/list_changed (the spec leaves following it to the client)',
  reconnect: 'the client reconnects or respawns its server after losing it (the spec leaves reconnecting to the client)',
  tasks: 'the client calls tools as tasks (MCP 2025-11-25 §basic/utilities/tasks: task-augmented requests are optional for a requestor)',
  resources: 'the client lists and reads resources (MCP 2025-11-25 §server/resources: a server feature a client may use or not)',
  prompts: 'the client lists and gets prompts (MCP 2025-11-25 §server/prompts: a server feature a client may use or not)',
  completions: 'the client asks for argument completions (MCP 2025-11-25 §server/utilities/completion: a server feature a client may use or not)',
  roots: 'the client offers roots when configured with some (MCP 2025-11-25 §client/roots: a client capability, declared only by clients that support it)',
  elicitation: 'the client answers elicitation when configured to (MCP 2025-11-25 §client/elicitation: a client capability, declared only by clients that support it)',
  sampling: 'the client answers sampling when configured to (MCP 2025-11-25 §client/sampling: a client capability, declared only by clients that support it)',
  auth: 'the client takes OAuth credentials or signs in as the driver protocol passes them (MCP 2025-11-25 §basic/authorization: "Authorization is OPTIONAL for MCP implementations")',
} as const

/**
 * Features beyond tools: judged for whoever declares them, a bridge included. A bridge (our
 * plugin) that does not offer them yet is not applicable, never failed for a verb it lacks.
 */
export const BEYOND_FEATURES: ReadonlySet<string> = new Set(['resources', 'prompts', 'completions'])

/** Why the whole scenario does not apply to this client, or undefined when it does. */
export function scenarioNotApplicable(scenario: Scenario, kind: ClientKind, features: string[]): string | undefined {
  const applies = scenario.applies
  if (BEYOND_FEATURES.has(applies.to) && !features.includes(applies.to)) return `only for clients that declare "${applies.to}": ${FEATURES[applies.to as keyof typeof FEATURES]}${kind === 'bridge' ? ' (the bridge does not offer it yet)' : ''}; ${applies.reason ?? ''}`.replace(/; $/, '')
  if (kind === 'bridge') return undefined
  if (applies.to === 'bridge') return `bridge only: ${applies.reason ?? 'about a bridge naming contract'}`
  if (applies.to !== 'every-client' && !features.includes(applies.to)) return `only for clients that declare "${applies.to}": ${FEATURES[applies.to]}; ${applies.reason ?? ''}`.replace(/; $/, '')
  if (scenario.steps.some((step) => 'squat' in step)) return 'bridge only: another plugin squatting a public name needs a host tool registry'
  return undefined
}

/** Why one check does not apply to this client, or undefined when it does. */
export function checkNotApplicable(scenario: Scenario, kind: ClientKind, checkId: string): string | undefined {
  if (kind === 'bridge') return undefined
  return BRIDGE_ONLY_CHECKS[checkId] ?? scenario.applies.bridgeOnly[checkId]
}

/**
 * A call's expectation as it holds for this client: `isError` always (the spec's tool execution
 * errors are for the caller to see); `code` only as "an error" (the codes are our vocabulary);
 * text, images and structured content only where the scenario declares them `universal` (the
 * server's own words, say), since rendering is the client's own.
 */
export function callExpectationFor(expected: CallExpectation, kind: ClientKind): { expect: CallExpectation; dropped: string[] } {
  if (kind === 'bridge') return { expect: expected, dropped: [] }
  const { universal = [], code, ...rest } = expected
  const expect: CallExpectation = {}
  const dropped: string[] = []
  if (rest.isError !== undefined || code !== undefined) expect.isError = rest.isError ?? true
  if (code !== undefined) dropped.push(`code ${code}`)
  for (const field of ['text', 'notText', 'images', 'structured'] as const) {
    if (rest[field] === undefined) continue
    if (universal.includes(field)) (expect as Record<string, unknown>)[field] = rest[field]
    else dropped.push(field)
  }
  return { expect, dropped }
}

/**
 * The SHOULD a scenario quotes for this check, as it holds for a client in `revision`: a bridge
 * keeps its failure (our contract makes it a MUST); a sentence the revision does not have yet is
 * not in force (the check is then what `applies.info` says: information). The kit's own checks
 * carry their sentence's keyword instead (rules.ts), which verdicts.ts reads.
 */
export function shouldSentence(scenario: Scenario, kind: ClientKind, checkId: string, revision: string = LATEST_REVISION): string | undefined {
  if (kind === 'bridge') return undefined
  const entry = scenario.applies.should[checkId]
  if (entry === undefined || typeof entry === 'string') return entry
  return atLeast(revision, entry.from) ? entry.sentence : undefined
}

/** What a scenario says of a check whose breach is information for a client (the sentence, without a keyword or with MAY). */
export function infoSentence(scenario: Scenario, kind: ClientKind, checkId: string): string | undefined {
  return kind === 'bridge' ? undefined : scenario.applies.info[checkId]
}
