/**
 * Pure verdicts on the payload of every notification the server sent, on every connection:
 * each validated with the SDK's schema for its method, as the negotiated revision defines it.
 */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import { CANCELLED, LOG_MESSAGE, OTHER, PROGRESS, PROMPTS_LIST_CHANGED, RESOURCE_UPDATED, RESOURCES_LIST_CHANGED, TOOLS_LIST_CHANGED } from '../registry/notifications.ts'
import type { CheckDef } from '../registry/types.ts'
import { validateShape, type ShapeName } from '../shapes.ts'
import { atLeast } from '../spec.ts'
import { MAX_KEPT, type Ledger, type ServerNotification } from '../wire/ledger.ts'

const KNOWN: Array<{ method: string; def: CheckDef; shape: ShapeName }> = [
  { method: 'notifications/message', def: LOG_MESSAGE, shape: 'LoggingMessageNotification' },
  { method: 'notifications/progress', def: PROGRESS, shape: 'ProgressNotification' },
  { method: 'notifications/cancelled', def: CANCELLED, shape: 'CancelledNotification' },
  { method: 'notifications/resources/updated', def: RESOURCE_UPDATED, shape: 'ResourceUpdatedNotification' },
  { method: 'notifications/tools/list_changed', def: TOOLS_LIST_CHANGED, shape: 'ToolListChangedNotification' },
  { method: 'notifications/prompts/list_changed', def: PROMPTS_LIST_CHANGED, shape: 'PromptListChangedNotification' },
  { method: 'notifications/resources/list_changed', def: RESOURCES_LIST_CHANGED, shape: 'ResourceListChangedNotification' },
]

/** Server notifications judged by notifications/other, and the revision each arrived in. */
const LATER: Record<string, { shape: ShapeName; from: string }> = {
  'notifications/tasks/status': { shape: 'TaskStatusNotification', from: '2025-11-25' },
  'notifications/elicitation/complete': { shape: 'ElicitationCompleteNotification', from: '2025-11-25' },
}

const wireOf = (items: ServerNotification[]) => items.slice(0, 3).map((n) => ({ dir: 'server→client', message: n.message }))

/**
 * Judges every notification as it arrives (the ledger keeps counts per method and class, and the
 * first few of each class in full): a flood costs counts, not memory. Classes: `shape` (breaks
 * the revision's schema for its method), `cancel-unknown`, `needs:…` (a capability not negotiated).
 */
export function notificationClassifier(capabilities: Record<string, unknown>, version: string): (n: ServerNotification) => string {
  return (n) => {
    const known = KNOWN.find((k) => k.method === n.method)
    const later = LATER[n.method]
    const shape = known ? known.shape : later && atLeast(version, later.from) ? later.shape : undefined
    const parts: string[] = []
    if (shape && validateShape(shape, n.message, version).issues.length > 0) parts.push('shape')
    if (n.cancels === 'unknown') parts.push('cancel-unknown')
    const needed = neededFor(n, capabilities)
    if (needed) parts.push(`needs:${needed.need}`)
    return parts.join('\n')
  }
}

/** From now on, every ledger's notifications are judged as they arrive (the ones kept so far now). */
export function classifyNotifications(ledgers: Ledger[], capabilities: Record<string, unknown>, version: string): void {
  const classifier = notificationClassifier(capabilities, version)
  for (const ledger of ledgers) ledger.classify(classifier)
}

const has = (part: string) => (cls: string) => cls.split('\n').some((p) => p === part || p.startsWith(`${part}:`))
const sum = (ledgers: Ledger[], method?: string, match?: (cls: string) => boolean) => ledgers.reduce((n, l) => n + l.tally(method, match), 0)

/** `capabilities`: the session's, for a ledger not yet classified (see classifyNotifications). */
export function judgeNotifications(ledgers: Ledger[], version: string, capabilities: Record<string, unknown> = {}): CheckResult[] {
  classifyNotifications(ledgers, capabilities, version)
  const all = ledgers.flatMap((l) => l.notifications)
  const judged = KNOWN.map(({ method, def, shape }) => judgeMethod(def, shape, method, all.filter((n) => n.method === method), ledgers, version))
  const progress = judged.findIndex((check) => check.id === PROGRESS.id)
  // Well-formed progress must also go up: judged per connection, where tokens live, as it arrived.
  if (judged[progress]?.status === 'pass') judged[progress] = judgeProgressOrder(ledgers, version) ?? judged[progress]!
  return [...judged, judgeOther(all.filter((n) => !KNOWN.some((k) => k.method === n.method)), ledgers, version)]
}

/** The first token, per connection, whose progress value did not increase; undefined when all did. */
function judgeProgressOrder(ledgers: Ledger[], version: string): CheckResult | undefined {
  const found = ledgers.find((l) => l.progressViolation)?.progressViolation
  if (!found) return undefined
  const before = found.before.params as { progressToken: unknown; progress: number }
  const after = found.after.params as { progress: number }
  const text = `progress for token ${show(before.progressToken, 60)} went from ${before.progress} to ${after.progress}; each notification must increase it`
  return judge(PROGRESS, version).breach(text, { wire: wireOf([found.before, found.after]) }, 'increase')
}

interface Invalid {
  notification: ServerNotification
  problems: string[]
}

function invalid(sent: ServerNotification[], shape: ShapeName, version: string): Invalid[] {
  return sent.map((notification) => ({ notification, problems: validateShape(shape, notification.message, version).issues.map((i) => i.text) })).filter((x) => x.problems.length > 0)
}

/** A note for notifications that arrived before the session was negotiated and were neither kept nor judged. */
function unjudgedNote(ledgers: Ledger[]): string {
  const n = ledgers.reduce((t, l) => t + l.unclassified, 0)
  return n ? `; ${count(n, 'notification')} that arrived before the session was negotiated, beyond the ${MAX_KEPT} kept, not judged` : ''
}

function judgeMethod(def: CheckDef, shape: ShapeName, method: string, kept: ServerNotification[], ledgers: Ledger[], version: string): CheckResult {
  const j = judge(def, version)
  if (!j.applies) return j.notInRevision()
  const total = sum(ledgers, method)
  if (total === 0) return j.skip(`the server sent no ${method}; nothing to judge`)
  const bad = invalid(kept, shape, version)
  const badTotal = Math.max(bad.length, sum(ledgers, method, has('shape')))
  if (badTotal) {
    const first = bad[0]
    const which = total === 1 ? `the ${method} notification breaks` : `${badTotal} of ${total} ${method} notifications break`
    const text = `${which} the ${version} ${shape} schema${first ? `: ${list(first.problems, 3)}; the message: ${show(first.notification.message, 200)}` : ''}`
    return j.breach(text, { wire: wireOf(bad.map((b) => b.notification)), details: { problems: bad.slice(0, 20).map((b) => b.problems) } })
  }
  if (def === CANCELLED) {
    const unknown = kept.filter((n) => n.cancels === 'unknown')
    if (unknown.length || sum(ledgers, method, has('cancel-unknown'))) {
      const ids = unknown.map((n) => show((n.params as Record<string, unknown>).requestId, 40))
      return j.breach(`notifications/cancelled names ${list(ids, 3)}, which is no request the server sent`, { wire: wireOf(unknown) }, 'request-id')
    }
  }
  return j.pass(`${count(total, `${method} notification`)}, ${total === 1 ? 'a' : 'each a'} valid ${shape}${unjudgedNote(ledgers)}`, { wire: wireOf(kept.slice(0, 1)) })
}

function judgeOther(kept: ServerNotification[], ledgers: Ledger[], version: string): CheckResult {
  const j = judge(OTHER, version)
  const methods = [...new Set(ledgers.flatMap((l) => [...l.methodCounts.keys()]))].filter((m) => !KNOWN.some((k) => k.method === m))
  const total = methods.reduce((t, m) => t + sum(ledgers, m), 0)
  if (total === 0) return j.skip('the server sent no other notification; nothing to judge')
  const applies = (m: string) => LATER[m] !== undefined && atLeast(version, LATER[m].from)
  const known = kept.filter((n) => applies(n.method))
  const bad = known.flatMap((n) => invalid([n], LATER[n.method]!.shape, version))
  if (bad.length) {
    const first = bad[0]!
    return j.breach(`${first.notification.method} breaks the ${version} ${LATER[first.notification.method]!.shape} schema: ${list(first.problems, 3)}; the message: ${show(first.notification.message, 200)}`, { wire: wireOf(bad.map((b) => b.notification)) }, 'shape')
  }
  const foreign = methods.filter((m) => !applies(m))
  if (foreign.length) return j.info(`the server sent ${list(foreign.map((m) => show(m, 60)), 3)}, which ${version} does not define as a server notification; not judged`, { wire: wireOf(kept.filter((n) => !applies(n.method))) })
  const knownTotal = methods.reduce((t, m) => t + sum(ledgers, m), 0)
  return j.pass(`${count(knownTotal, 'notification')} (${list(methods, 3)}), each valid`, { wire: wireOf(known.slice(0, 1)) })
}

/** What each server notification needs to have been negotiated (undefined: nothing). */
export function neededFor(notification: ServerNotification, capabilities: Record<string, unknown>): { need: string; ruleCase?: string } | undefined {
  const capability = (name: string) => (isObject(capabilities[name]) ? (capabilities[name] as Record<string, unknown>) : undefined)
  switch (notification.method) {
    case 'notifications/message':
      return capability('logging') ? undefined : { need: 'the logging capability', ruleCase: 'logging' }
    case 'notifications/progress':
      // The kit sends a progressToken only with the tool calls --call allows.
      if (notification.progress === 'active') return undefined
      return { need: notification.progress === 'finished' ? 'an operation in progress (its request had been answered)' : 'a progressToken the kit sent', ruleCase: 'progress' }
    case 'notifications/tools/list_changed':
    case 'notifications/prompts/list_changed':
    case 'notifications/resources/list_changed': {
      const area = notification.method.split('/')[1]!
      return capability(area)?.listChanged === true ? undefined : { need: `${area}.listChanged` }
    }
    case 'notifications/resources/updated':
      return capability('resources')?.subscribe === true ? undefined : { need: 'resources.subscribe' }
    default:
      return undefined
  }
}
