import type { BeyondAsk, BeyondOutcome } from '../adapter.ts'
import type { DriverState } from './state.ts'

/** A verb beyond tools through the driver, bounded like a call: the client's answer, its refusal, or no answer. */
export async function askThroughDriver(driver: DriverState, request: BeyondAsk): Promise<BeyondOutcome> {
  const { channel, bounds } = driver
  const started = performance.now()
  const answer = await channel.request(request, bounds.callMs)
  const ms = Math.round(performance.now() - started)
  if (answer.ok) return { ok: true, value: answer.value ?? {}, ms }
  if ('unanswered' in answer) return { ok: false, error: answer.error, unanswered: `the client had not answered "${request.op}" after ${bounds.callMs} ms` }
  return { ok: false, error: answer.error, ms, ...(answer.unsupported && { unsupported: true }) }
}
