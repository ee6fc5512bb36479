/**
 * Pure verdicts on everything the connections' ledgers saw: the JSON-RPC envelope of every server
 * message, the requests the server sent to the kit, and the notifications it sent.
 */
import type { CheckResult } from '../../model.ts'
import { count, judge, list, show } from '../check.ts'
import { EARLY_REQUESTS, SERVER_NOTIFICATIONS, SERVER_REQUESTS } from '../registry/lifecycle.ts'
import { ERROR_RESPONSES, JSONRPC_VERSION, NO_NOTIFICATION_RESPONSE, NOTIFICATION_IDS, REQUEST_IDS, RESPONSE_IDS, RESULT_OR_ERROR } from '../registry/messages.ts'
import type { CheckDef } from '../registry/types.ts'
import { classifyNotifications, neededFor } from './notifications.ts'
import type { EnvelopeRule, Finding, Ledger, RequestCounts, ServerRequest } from '../wire/ledger.ts'

const ENVELOPE: Array<[EnvelopeRule, CheckDef]> = [
  ['version', JSONRPC_VERSION],
  ['error-responses', ERROR_RESPONSES],
  ['result-or-error', RESULT_OR_ERROR],
  ['response-ids', RESPONSE_IDS],
  ['no-response-to-notifications', NO_NOTIFICATION_RESPONSE],
  ['request-ids', REQUEST_IDS],
  ['notification-ids', NOTIFICATION_IDS],
]

/** Which sentence of its check a finding breaks. */
function caseOf(finding: Finding): string | undefined {
  if (finding.rule === 'version') return 'value'
  return finding.rule === 'error-responses' && /error message|not an object/.test(finding.message) ? 'message' : undefined
}

/** `onlyBreaches`: report only the rules something broke (a run that ends after initialize judges nothing else). */
export function judgeEnvelope(ledgers: Ledger[], version: string, onlyBreaches = false): CheckResult[] {
  const findings = ledgers.flatMap((l) => l.findings)
  const messages = ledgers.reduce((n, l) => n + l.counts.messages, 0)
  const responses = ledgers.reduce((n, l) => n + l.counts.responses, 0)
  const errors = ledgers.reduce((n, l) => n + l.counts.errorResponses, 0)
  const notificationsSent = ledgers.reduce((n, l) => n + l.counts.notificationsSent, 0)
  const requests = ledgers.reduce((n, l) => n + l.requestCounts.all, 0)
  const notificationsReceived = ledgers.reduce((n, l) => n + l.tally(), 0)
  // What each rule needs to have seen before a pass means something.
  const seen: Record<EnvelopeRule, [number, string]> = {
    version: [messages, `${count(messages, 'message')}, each with "jsonrpc": "2.0"`],
    'error-responses': [errors, `${count(errors, 'error response')} with integer codes and string messages`],
    'result-or-error': [responses, `${count(responses, 'response')}, each with exactly one of result and error`],
    'response-ids': [responses, `${count(responses, 'response')}, each answering a request the kit sent, once`],
    'no-response-to-notifications': [notificationsSent, `no response to any of the ${count(notificationsSent, 'notification')} the kit sent`],
    'request-ids': [requests, `${count(requests, 'server request')} with distinct string or integer ids`],
    'notification-ids': [notificationsReceived, `${count(notificationsReceived, 'notification')}, none with an id`],
  }
  const nothing: Record<EnvelopeRule, string> = {
    version: 'the server sent no message; nothing to judge',
    'error-responses': 'the server sent no error response; nothing to judge',
    'result-or-error': 'the server sent no response; nothing to judge',
    'response-ids': 'the server sent no response; nothing to judge',
    'no-response-to-notifications': 'the kit sent no notification; nothing to judge',
    'request-ids': 'the server sent no request; nothing to judge',
    'notification-ids': 'the server sent no notification; nothing to judge',
  }
  const rules = onlyBreaches ? ENVELOPE.filter(([rule]) => findings.some((f) => f.rule === rule)) : ENVELOPE
  return rules.map(([rule, def]) => {
    const j = judge(def, version)
    const mine = findings.filter((f) => f.rule === rule)
    // Counted on arrival: the ledgers keep only the first few of each rule.
    const total = ledgers.reduce((n, l) => n + l.findingCount(rule), 0)
    const first = mine[0]
    if (first) {
      return j.breach(`${first.message}${total > 1 ? ` (and ${total - 1} more)` : ''}`, { wire: mine.slice(0, 4).flatMap((f) => f.wire), details: { findings: mine.slice(0, 20).map((f) => f.message), ...(total > mine.length ? { findingsInAll: total } : {}) } }, caseOf(first))
    }
    const [n, summary] = seen[rule]
    return n > 0 ? j.pass(summary) : j.skip(nothing[rule])
  })
}

/** The requests the server sent: only ping needs no client capability, and the kit declared none. */
export function judgeServerRequests(ledgers: Ledger[], version: string): CheckResult[] {
  // Counted on arrival; the ledgers keep the first few of each kind as evidence.
  const requests = ledgers.flatMap((l) => l.serverRequests)
  const counts: RequestCounts = { all: 0, pings: 0, undeclared: 0, early: 0, earlyOther: 0 }
  for (const l of ledgers) for (const k of Object.keys(counts) as Array<keyof RequestCounts>) counts[k] += l.requestCounts[k]
  return [judgeUndeclaredRequests(requests, counts, version), judgeEarlyRequests(requests, counts, version)]
}

/** Nothing sent is nothing to judge: no pass for a rule that was never put to the test. */
const NO_REQUESTS = 'nothing to judge: the server sent no requests'

const wireOf = (request: ServerRequest) => [
  { dir: 'server→client', message: request.message },
  { dir: 'client→server', message: request.answer },
]

function judgeUndeclaredRequests(requests: ServerRequest[], counts: RequestCounts, version: string): CheckResult {
  const j = judge(SERVER_REQUESTS, version)
  const undeclared = requests.filter((r) => r.undeclared)
  if (counts.undeclared > 0) {
    const text = [...new Set(undeclared.map((r) => `${r.method} (needs ${r.undeclared})`))]
    const of = counts.undeclared > undeclared.length ? ` (${counts.undeclared} such requests in all)` : ''
    return j.breach(`the server sent ${list(text, 3)}${of} although the kit declared no client capabilities; answered with -32601`, { wire: undeclared.slice(0, 3).flatMap(wireOf) })
  }
  const pings = counts.pings
  const other = counts.all - pings
  if (counts.all === 0) return j.skip(NO_REQUESTS)
  return j.pass(`${count(pings, 'ping')} answered with {}${other ? `, ${count(other, 'request')} for methods outside any capability answered with -32601` : ''}`, { wire: requests.slice(0, 2).flatMap(wireOf) })
}

function judgeEarlyRequests(requests: ServerRequest[], counts: RequestCounts, version: string): CheckResult {
  const j = judge(EARLY_REQUESTS, version)
  const early = requests.filter((r) => r.early && r.method !== 'ping' && !r.method.startsWith('logging/'))
  if (counts.earlyOther > 0) {
    const of = counts.earlyOther > early.length ? ` (${counts.earlyOther} requests in all)` : ''
    return j.breach(`${list([...new Set(early.map((r) => show(r.method, 40)))], 3)} arrived before notifications/initialized${of}`, { wire: early.slice(0, 3).flatMap(wireOf) })
  }
  if (counts.all === 0) return j.skip(NO_REQUESTS)
  return j.pass(counts.early > 0 ? 'only pings arrived before notifications/initialized' : 'no request arrived before notifications/initialized')
}

export function judgeServerNotifications(ledgers: Ledger[], capabilities: Record<string, unknown>, version: string): CheckResult {
  const j = judge(SERVER_NOTIFICATIONS, version)
  // Every notification was classified as it arrived (a ledger not yet classified is now); the ledgers keep the first few of each class.
  classifyNotifications(ledgers, capabilities, version)
  const kept = ledgers.flatMap((l) => l.notifications)
  const total = ledgers.reduce((n, l) => n + l.tally(), 0)
  const badTotal = ledgers.reduce((n, l) => n + l.tally(undefined, (cls) => cls.split('\n').some((p) => p.startsWith('needs:'))), 0)
  const bad = kept.map((n) => ({ n, needed: neededFor(n, capabilities) })).filter((x) => x.needed)
  if (bad.length || badTotal) {
    const first = bad[0]
    const text = bad.map((x) => `${x.n.method} without ${x.needed!.need}`)
    const of = badTotal > bad.length ? ` (${badTotal} such notifications in all)` : ''
    return j.breach(`the server sent ${list([...new Set(text)], 3)}${of}`, { wire: bad.slice(0, 3).map((x) => ({ dir: 'server→client', message: x.n.message })) }, first?.needed!.ruleCase)
  }
  if (total === 0) return j.skip('nothing to judge: the server sent no notifications')
  const methods = [...new Set(ledgers.flatMap((l) => [...l.methodCounts.keys()]))]
  return j.pass(`${count(total, 'notification')} (${list(methods.map((m) => show(m, 50)), 4)}), each within what was negotiated`)
}
