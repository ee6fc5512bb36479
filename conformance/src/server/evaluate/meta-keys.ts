/**
 * Pure verdicts on the `_meta` key names of every message the server sent, over all connections
 * (the ledgers count them as they arrive and keep the first few faults as evidence).
 */
import type { CheckResult } from '../../model.ts'
import { count, judge, list, show } from '../check.ts'
import type { MetaKeyFault } from '../meta-keys.ts'
import { META_KEY_NAMES, META_REVERSE_DNS } from '../registry/messages.ts'
import type { CheckDef } from '../registry/types.ts'
import type { Ledger } from '../wire/ledger.ts'

export function judgeMetaKeys(ledgers: Ledger[], version: string): CheckResult[] {
  return [judgeFault(ledgers, version, META_KEY_NAMES, 'format'), judgeFault(ledgers, version, META_REVERSE_DNS, 'reverse-dns')]
}

function judgeFault(ledgers: Ledger[], version: string, def: CheckDef, fault: MetaKeyFault): CheckResult {
  const j = judge(def, version)
  if (!j.applies) return j.notInRevision()
  const tallies = ledgers.map((l) => l.metaKeys)
  const total = tallies.reduce((n, t) => n + t.faults[fault], 0)
  const kept = tallies.flatMap((t) => t.kept).filter((f) => f.fault === fault)
  if (total > 0) {
    const named = kept.map((f) => `${show(f.key, 60)} (${f.why})`)
    const more = total > kept.length ? ` (${total} such keys in all)` : ''
    return j.breach(`the server sent the _meta key ${list([...new Set(named)], 3)}${more}`, {
      wire: kept.slice(0, 3).map((f) => ({ dir: 'server→client', message: f.message })),
      details: { keys: kept.slice(0, 10).map((f) => show(f.key, 120)) },
    })
  }
  const judged = fault === 'format' ? tallies.reduce((n, t) => n + t.keys, 0) : tallies.reduce((n, t) => n + t.prefixed, 0)
  if (judged === 0) return j.skip(fault === 'format' ? 'the server sent no _meta keys; nothing to judge' : 'the server sent no prefixed _meta keys; nothing to judge')
  return j.pass(fault === 'format' ? `${count(judged, '_meta key')}, each well-formed` : `${count(judged, 'prefixed _meta key')}, none in forward DNS notation`)
}
