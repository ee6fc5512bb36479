/**
 * Pure verdict on what a server sent before it answered initialize (wire/ledger.ts keeps it). The
 * order is the order of the server's own output, so when the kit wrote initialize plays no part.
 */
import type { CheckResult } from '../../model.ts'
import { count, judge, list, show } from '../check.ts'
import { INITIALIZE_FIRST } from '../registry/lifecycle.ts'
import type { Ledger } from '../wire/ledger.ts'

export function judgeInitializeFirst(ledgers: Ledger[], version: string): CheckResult {
  const j = judge(INITIALIZE_FIRST, version)
  const total = ledgers.reduce((n, l) => n + l.beforeInitializeCount, 0)
  if (total === 0) return j.pass(`no notification but logging came before the answer to initialize on ${count(ledgers.length, 'connection')}`)
  const kept = ledgers.flatMap((l) => l.beforeInitialize)
  const methods = [...new Set(kept.map((m) => show(m.method, 40)))]
  return j.breach(`the server sent ${count(total, 'notification')} (${list(methods, 3)}) before it answered initialize`, { wire: kept.slice(0, 3).map((message) => ({ dir: 'server→client', message })) })
}
