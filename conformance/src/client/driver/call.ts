import type { CallOutcome, ClientSession } from '../adapter.ts'
import type { DriverCallResult } from './protocol.ts'
import type { DriverState } from './state.ts'

/** A tool call through the driver; an abort of the caller's signal asks the driver to abort it. */
export async function callThroughDriver(driver: DriverState, ...[publicName, args, options]: Parameters<ClientSession['call']>): Promise<CallOutcome> {
  const { channel, bounds } = driver
  const callId = channel.peekId()
  const abort = () => void channel.request({ op: 'abort', call: callId }, bounds.callMs)
  options.signal?.addEventListener('abort', abort, { once: true })
  const started = performance.now()
  const answer = await channel.request({ op: 'call', name: publicName, args }, bounds.callMs)
  options.signal?.removeEventListener('abort', abort)
  const ms = Math.round(performance.now() - started)
  if (answer.ok) return outcome(answer.result ?? {}, ms)
  if ('unanswered' in answer) return { isError: true, code: 'NOT_RETURNED', unanswered: `the call had not returned after ${bounds.callMs} ms`, content: [{ type: 'text', text: answer.error }] }
  return { isError: true, code: 'CLIENT_ERROR', content: [{ type: 'text', text: answer.error }], ms }
}

/** A client's result as the kit's call outcome: text blocks as text, images as media type and size. */
function outcome(result: DriverCallResult, ms: number): CallOutcome {
  const content = (result.content ?? []).map((block) =>
    block.type === 'image' ? { type: 'image' as const, ref: `${block.mimeType ?? '?'}:${block.data?.length ?? 0}` } : { type: 'text' as const, text: block.text ?? `[${block.type}]` },
  )
  return result.isError ? { isError: true, code: 'TOOL_ERROR', content, ms } : { isError: false, content, value: { structuredContent: result.structuredContent }, ms }
}
