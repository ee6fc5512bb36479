import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../model.ts'
import { clientSpec, runRevision } from './rules.ts'

/**
 * Pure: each ping the server sent was answered with a result (an empty one). Judged only in runs
 * where the server pinged at all, so scenarios without pings gain no check. A ping still open
 * when the run ended was never answered: the run outlasts any prompt answer by far.
 */
export function checkPings(wire: WireEntry[], revision: string = runRevision(wire)): CheckResult[] {
  const SPEC = clientSpec('ping/answer', revision)
  const open = new Map<string, number>()
  const problems: string[] = []
  let pings = 0
  for (const { dir, msg } of wire) {
    const message = msg as { id?: unknown; method?: string; result?: unknown; error?: { code?: unknown; message?: unknown } }
    const id = JSON.stringify(message.id)
    if (dir === 'send' && message.method === 'ping' && message.id !== undefined) {
      open.set(id, ++pings)
    } else if (dir === 'recv' && message.method === undefined && open.has(id)) {
      open.delete(id)
      if (message.error !== undefined) problems.push(`ping ${id} was answered with error ${String(message.error.code)} (${String(message.error.message)})`)
      else if (typeof message.result !== 'object' || message.result === null || Object.keys(message.result).length) problems.push(`ping ${id} was answered with ${JSON.stringify(message.result)}, not an empty result`)
    }
  }
  for (const id of open.keys()) problems.push(`ping ${id} was never answered`)
  if (!pings) return []
  const title = 'Every ping the server sends is answered with an empty result'
  if (problems.length) return [{ id: 'invariant/ping-answered', title, status: 'fail', message: problems.slice(0, 3).join('; '), spec: SPEC }]
  return [{ id: 'invariant/ping-answered', title, status: 'pass', message: `${pings} pings, each answered`, spec: SPEC }]
}
