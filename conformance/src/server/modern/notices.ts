/**
 * Pure verdict on the notifications a modern server sent unasked (./notice-rules.ts), read from
 * the run's ledger: the kit asked for no log level, progress or subscription on that connection.
 */
import type { CheckResult } from '../../model.ts'
import { count, list, show } from '../check.ts'
import type { ModernRevision } from '../spec.ts'
import type { Ledger, ServerNotification } from '../wire/ledger.ts'
import { modernJudge } from './judge.ts'
import { UNASKED_NOTIFICATIONS } from './notice-rules.ts'

const LOG = 'notifications/message'
const PROGRESS = 'notifications/progress'
const CANCELLED = 'notifications/cancelled'

/** The sentence case an unasked notification breaks; undefined when it is none of the three. */
export function unaskedCase(n: ServerNotification, loggingDeclared: boolean): string | undefined {
  if (n.method === LOG) return loggingDeclared ? undefined : 'log-undeclared'
  if (n.method === PROGRESS) return n.progress === 'finished' ? 'progress-after' : n.progress === 'active' ? undefined : 'progress'
  if (n.method === CANCELLED) return 'cancelled'
  return undefined
}

/** `capabilities`: what the DiscoverResult declared (logging among them or not). */
export function judgeUnaskedNotifications(ledger: Ledger, capabilities: Record<string, unknown>, revision: ModernRevision): CheckResult {
  const j = modernJudge(UNASKED_NOTIFICATIONS, revision)
  const declared = typeof capabilities.logging === 'object' && capabilities.logging !== null
  // A log message is unasked whatever the capabilities say; undeclared logging is the sharper breach to name.
  const unasked = ledger.notifications.filter((n) => n.method === LOG || unaskedCase(n, declared) !== undefined)
  const first = unasked[0]
  if (first) {
    const ruleCase = unaskedCase(first, declared)
    const methods = [...new Set(unasked.map((n) => n.method))]
    const why = first.method === LOG ? `though no request set io.modelcontextprotocol/logLevel${declared ? '' : ' and the DiscoverResult does not declare logging'}` : first.method === PROGRESS ? 'though no request carried a progressToken' : 'though the connection holds no subscriptions/listen request to end'
    return j.breach(`the server sent ${count(unasked.length, 'unasked notification')} (${list(methods.map((m) => show(m, 40)))}), ${why}`, { wire: unasked.slice(0, 3).map((n) => ({ dir: 'server→client' as const, message: n.message })) }, ruleCase)
  }
  const violation = ledger.progressViolation
  if (violation) return j.breach(`notifications/progress did not increase: ${show((violation.before.params as { progress?: unknown }).progress)} then ${show((violation.after.params as { progress?: unknown }).progress)}`, { wire: [violation.before, violation.after].map((n) => ({ dir: 'server→client' as const, message: n.message })) }, 'progress-order')
  if (ledger.counts.messages === 0) return j.skip('the server sent no message; nothing to judge')
  return j.pass(`${count(ledger.counts.messages, 'message')}, none an unasked notifications/message, notifications/progress or notifications/cancelled`)
}
