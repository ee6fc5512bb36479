/**
 * Pure verdicts on the payload of every notification the server sent, on every connection:
 * each validated with the SDK's schema for its method, as the negotiated revision defines it.
 */
import type { CheckResult } from '../../model.ts'
import { count, judge, list, show } from '../check.ts'
import { CANCELLED, LOG_MESSAGE, OTHER, PROGRESS, PROMPTS_LIST_CHANGED, RESOURCE_UPDATED, RESOURCES_LIST_CHANGED, TOOLS_LIST_CHANGED } from '../registry/notifications.ts'
import type { CheckDef } from '../registry/types.ts'
import { validateShape, type ShapeName } from '../shapes.ts'
import { atLeast } from '../spec.ts'
import type { Ledger, ServerNotification } from '../wire/ledger.ts'

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

export function judgeNotifications(ledgers: Ledger[], version: string): CheckResult[] {
  const all = ledgers.flatMap((l) => l.notifications)
  const judged = KNOWN.map(({ method, def, shape }) => judgeMethod(def, shape, method, all.filter((n) => n.method === method), version))
  const progress = judged.findIndex((check) => check.id === PROGRESS.id)
  // Well-formed progress must also go up: judged per connection, where tokens live.
  if (judged[progress]?.status === 'pass') judged[progress] = judgeProgressOrder(ledgers, version) ?? judged[progress]!
  return [...judged, judgeOther(all.filter((n) => !KNOWN.some((k) => k.method === n.method)), version)]
}

/** The first token, per connection, whose progress value did not increase; undefined when all did. */
function judgeProgressOrder(ledgers: Ledger[], version: string): CheckResult | undefined {
  for (const ledger of ledgers) {
    const last = new Map<string, { value: number; notification: ServerNotification }>()
    for (const notification of ledger.notifications.filter((n) => n.method === 'notifications/progress')) {
      const params = notification.params as { progressToken: unknown; progress: number }
      const token = `${typeof params.progressToken}:${String(params.progressToken)}`
      const before = last.get(token)
      if (before && params.progress <= before.value) {
        const text = `progress for token ${show(params.progressToken, 60)} went from ${before.value} to ${params.progress}; each notification must increase it`
        return judge(PROGRESS, version).breach(text, { wire: wireOf([before.notification, notification]) }, 'increase')
      }
      last.set(token, { value: params.progress, notification })
    }
  }
  return undefined
}

interface Invalid {
  notification: ServerNotification
  problems: string[]
}

function invalid(sent: ServerNotification[], shape: ShapeName, version: string): Invalid[] {
  return sent.map((notification) => ({ notification, problems: validateShape(shape, notification.message, version).issues.map((i) => i.text) })).filter((x) => x.problems.length > 0)
}

function judgeMethod(def: CheckDef, shape: ShapeName, method: string, sent: ServerNotification[], version: string): CheckResult {
  const j = judge(def, version)
  if (!j.applies) return j.notInRevision()
  if (sent.length === 0) return j.skip(`the server sent no ${method}; nothing to judge`)
  const bad = invalid(sent, shape, version)
  if (bad.length) {
    const first = bad[0]!
    const which = sent.length === 1 ? `the ${method} notification breaks` : `${bad.length} of ${sent.length} ${method} notifications break`
    const text = `${which} the ${version} ${shape} schema: ${list(first.problems, 3)}; the message: ${show(first.notification.message, 200)}`
    return j.breach(text, { wire: wireOf(bad.map((b) => b.notification)), details: { problems: bad.slice(0, 20).map((b) => b.problems) } })
  }
  if (def === CANCELLED) {
    const unknown = sent.filter((n) => n.cancels === 'unknown')
    if (unknown.length) {
      const ids = unknown.map((n) => show((n.params as Record<string, unknown>).requestId, 40))
      return j.breach(`notifications/cancelled names ${list(ids, 3)}, which is no request the server sent`, { wire: wireOf(unknown) }, 'request-id')
    }
  }
  return j.pass(`${count(sent.length, `${method} notification`)}, ${sent.length === 1 ? "a" : "each a"} valid ${shape}`, { wire: wireOf(sent.slice(0, 1)) })
}

function judgeOther(sent: ServerNotification[], version: string): CheckResult {
  const j = judge(OTHER, version)
  if (sent.length === 0) return j.skip('the server sent no other notification; nothing to judge')
  const known = sent.filter((n) => LATER[n.method] && atLeast(version, LATER[n.method]!.from))
  const bad = known.flatMap((n) => invalid([n], LATER[n.method]!.shape, version))
  if (bad.length) {
    const first = bad[0]!
    return j.breach(`${first.notification.method} breaks the ${version} ${LATER[first.notification.method]!.shape} schema: ${list(first.problems, 3)}; the message: ${show(first.notification.message, 200)}`, { wire: wireOf(bad.map((b) => b.notification)) }, 'shape')
  }
  const foreign = [...new Set(sent.filter((n) => !known.includes(n)).map((n) => n.method))]
  if (foreign.length) return j.info(`the server sent ${list(foreign.map((m) => show(m, 60)), 3)}, which ${version} does not define as a server notification; not judged`, { wire: wireOf(sent.filter((n) => !known.includes(n))) })
  return j.pass(`${count(known.length, 'notification')} (${list([...new Set(known.map((n) => n.method))], 3)}), each valid`, { wire: wireOf(known.slice(0, 1)) })
}
