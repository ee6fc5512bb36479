/**
 * Pure verdicts on every message a modern run's connection carried (its ledger), under the
 * 2026-07-28 envelope sentences of ./envelope-rules.ts. Each is judged only on what was seen:
 * nothing of a kind seen is a skip, never a pass.
 */
import type { CheckResult } from '../../model.ts'
import { count, list, show } from '../check.ts'
import type { ModernRevision } from '../spec.ts'
import type { EnvelopeRule, Finding, Ledger } from '../wire/ledger.ts'
import { describeOutcome, type RpcOutcome, type WireEntry } from '../wire/types.ts'
import {
  DEFINED_RESERVED_CODES,
  JSONRPC_CODES,
  MODERN_CANCEL_IGNORED,
  MODERN_ERROR_CODES,
  MODERN_ERROR_SHAPE,
  MODERN_JSONRPC_VERSION,
  MODERN_NO_SERVER_REQUESTS,
  MODERN_NOTIFICATION_IDS,
  MODERN_NOTIFICATION_REPLY,
  MODERN_RESULT_IDS,
  MODERN_RESULT_OR_ERROR,
  RETIRED_CODES,
} from './envelope-rules.ts'
import { modernJudge } from './judge.ts'
import type { ModernCheckDef } from './types.ts'

/** The server message a finding is about: the last entry of its evidence. */
function offending(finding: Finding): unknown {
  return finding.wire.at(-1)?.message
}

const isResult = (message: unknown) => typeof message === 'object' && message !== null && 'result' in message && !('error' in message)

/** A ledger rule's findings as one check's verdict; `keep` picks the findings that check owns, `caseOf` the sentence each breaks. */
function fromFindings(def: ModernCheckDef, ledger: Ledger, rule: EnvelopeRule, revision: ModernRevision, seen: number, passed: string, nothing: string, keep?: (f: Finding) => boolean, caseOf: (f: Finding) => string | undefined = () => undefined): CheckResult {
  const j = modernJudge(def, revision)
  const mine = ledger.findings.filter((f) => f.rule === rule && (keep?.(f) ?? true))
  const first = mine[0]
  if (first) {
    // The ledger counts every finding but keeps the first few; a filtered rule reports what it kept.
    const total = keep === undefined ? ledger.findingCount(rule) : mine.length
    return j.breach(`${first.message}${total > 1 ? ` (and ${total - 1} more)` : ''}`, { wire: mine.slice(0, 4).flatMap((f) => f.wire), details: { findings: mine.slice(0, 20).map((f) => f.message) } }, caseOf(first))
  }
  return seen > 0 ? j.pass(passed) : j.skip(nothing)
}

function judgeRequests(ledger: Ledger, transport: 'stdio' | 'http', revision: ModernRevision): CheckResult {
  const j = modernJudge(MODERN_NO_SERVER_REQUESTS, revision)
  const ids = ledger.findings.filter((f) => f.rule === 'request-ids')
  if (ids[0]) return j.breach(ids[0].message, { wire: ids.slice(0, 4).flatMap((f) => f.wire) }, 'ids')
  // A notifications/ method with an id is modern/notification-ids' to judge, not a request of its own.
  const n = ledger.requestCounts.all - ledger.findingCount('notification-ids')
  if (n === 0 && ledger.counts.messages === 0) return j.skip('the server sent no message; nothing to judge')
  if (n === 0) return j.pass(`${count(ledger.counts.messages, 'message')}, none a request`)
  const kept = ledger.serverRequests.filter((r) => !r.method.startsWith('notifications/'))
  const methods = [...new Set(kept.map((r) => show(r.method, 40)))]
  const wire: WireEntry[] = kept.slice(0, 3).flatMap((r) => [
    { dir: 'server→client', message: r.message },
    { dir: 'client→server', message: r.answer },
  ])
  return j.breach(`the server sent ${count(n, 'JSON-RPC request')} (${list(methods, 3)}) instead of asking through an input_required result; answered with -32601`, { wire }, transport)
}

/** Which sentence of modern/error-codes a code breaks, if any. */
export function codeBreach(code: number, method: string | undefined): string | undefined {
  if (RETIRED_CODES.includes(code)) return code === -32002 && method === 'resources/read' ? undefined : String(code)
  if (code <= -32020 && code >= -32099) return DEFINED_RESERVED_CODES.includes(code) ? undefined : 'reserved'
  if (code <= -32000 && code >= -32019) return 'legacy'
  if (code <= -32000 && code >= -32768 && !JSONRPC_CODES.includes(code)) return 'outside'
  return undefined
}

const WHY: Record<string, string> = {
  reserved: 'a code of the reserved sub-range -32099 to -32020 this specification does not define',
  legacy: 'a code of the legacy sub-range -32019 to -32000',
  outside: 'a code inside JSON-RPC’s reserved range -32768 to -32000 that JSON-RPC does not define',
}

function judgeCodes(ledger: Ledger, revision: ModernRevision): CheckResult {
  const j = modernJudge(MODERN_ERROR_CODES, revision)
  const seen = [...ledger.errorCodes.values()]
  const bad = seen.map((s) => ({ s, breach: codeBreach(s.code, s.method) })).filter((x) => x.breach !== undefined)
  // A MUST NOT first: the strongest sentence broken governs the verdict.
  const order = ['reserved', '-32002', '-32042', 'legacy', 'outside']
  bad.sort((a, b) => order.indexOf(a.breach!) - order.indexOf(b.breach!))
  const first = bad[0]
  if (first) {
    const text = bad.map((x) => `${x.s.code}${x.s.method ? ` (to ${show(x.s.method, 40)})` : ''}`)
    const why = WHY[first.breach!] ?? 'a code this revision retires'
    return j.breach(`the server answered with error ${list([...new Set(text)], 3)}: ${why}`, { wire: bad.slice(0, 3).map((x) => x.s.first) }, first.breach === 'reserved' ? undefined : first.breach)
  }
  if (seen.length === 0) return j.skip('the server sent no error response; nothing to judge')
  return j.pass(`error codes ${list(seen.map((s) => String(s.code)).filter((c, i, all) => all.indexOf(c) === i), 6)}: none retired, undefined in a reserved range, or legacy`)
}

/** The cancellations the kit sent (which, when the server stopped answering), and the request sent after them. */
export interface CancelProbe {
  sent: ('unknown' | 'completed' | 'malformed')[]
  after: RpcOutcome
}

export function judgeCancelIgnored(probe: CancelProbe, revision: ModernRevision): CheckResult {
  const j = modernJudge(MODERN_CANCEL_IGNORED, revision)
  const what = `after notifications/cancelled ${probe.sent.map((k) => (k === 'unknown' ? 'for a request never sent' : k === 'completed' ? 'for an answered request' : 'without a requestId')).join(', ')}`
  if (probe.after.kind === 'timeout' || probe.after.kind === 'closed') {
    // Which of them the server choked on cannot be told apart: the first sent governs.
    const first = probe.sent[0]
    return j.breach(`${what}, server/discover got ${describeOutcome(probe.after)}`, { wire: probe.after.wire }, first === 'unknown' ? undefined : first)
  }
  return j.pass(`${what}, server/discover was still answered`, { wire: probe.after.wire })
}

/** Every envelope verdict of a modern run, over what its connection carried. */
export function judgeModernEnvelope(ledger: Ledger, transport: 'stdio' | 'http', revision: ModernRevision): CheckResult[] {
  const c = ledger.counts
  const notifications = ledger.tally()
  const results = c.responses - c.errorResponses
  return [
    fromFindings(MODERN_JSONRPC_VERSION, ledger, 'version', revision, c.messages, `${count(c.messages, 'message')}, each with "jsonrpc": "2.0"`, 'the server sent no message; nothing to judge'),
    fromFindings(MODERN_ERROR_SHAPE, ledger, 'error-responses', revision, c.errorResponses, `${count(c.errorResponses, 'error response')} with integer codes and string messages`, 'the server sent no error response; nothing to judge', undefined, (f) => (/error message|not an object/.test(f.message) ? 'message' : undefined)),
    fromFindings(MODERN_RESULT_OR_ERROR, ledger, 'result-or-error', revision, c.responses, `${count(c.responses, 'response')}, each with exactly one of result and error`, 'the server sent no response; nothing to judge', undefined, (f) => (/both a result and an error/.test(f.message) ? 'both' : undefined)),
    fromFindings(MODERN_RESULT_IDS, ledger, 'response-ids', revision, results, `${count(results, 'result')}, each answering a request the kit sent, once`, 'the server sent no result; nothing to judge', (f) => isResult(offending(f))),
    fromFindings(MODERN_NOTIFICATION_REPLY, ledger, 'no-response-to-notifications', revision, c.notificationsSent, `no response to the ${count(c.notificationsSent, 'notification')} the kit sent`, 'the kit sent no notification; nothing to judge'),
    fromFindings(MODERN_NOTIFICATION_IDS, ledger, 'notification-ids', revision, notifications, `${count(notifications, 'notification')}, none with an id`, 'the server sent no notification; nothing to judge'),
    judgeRequests(ledger, transport, revision),
    judgeCodes(ledger, revision),
  ]
}
