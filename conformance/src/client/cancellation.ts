import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../model.ts'

const SPEC = {
  ref: 'MCP 2025-11-25 §basic/utilities/cancellation Behavior Requirements: "Cancellation notifications MUST only reference requests that: Were previously issued in the same direction"; "The initialize request MUST NOT be cancelled by clients"; "For task-augmented requests, the tasks/cancel request MUST be used instead of the notifications/cancelled notification"',
  url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation#behavior-requirements',
}

type Message = { id?: unknown; method?: string; params?: { requestId?: unknown; task?: unknown } }

/**
 * Pure: every notifications/cancelled the client sent names a request it had sent, never
 * initialize, never a task-augmented request. Judged against the latest request with that id
 * (over HTTP a new session may reuse ids). Whether the client still believed the request to be
 * in progress is not judged: the server's log cannot tell when the client read the answer.
 */
export function checkCancellations(wire: WireEntry[]): CheckResult {
  const sent = new Map<string, Message>()
  const problems: string[] = []
  const unjudged: string[] = []
  let malformed = 0
  let cancellations = 0
  for (const { dir, msg, invalid } of wire) {
    if (dir !== 'recv') continue
    const message = msg as Message
    // What the fixture could not accept as JSON-RPC is invariant/jsonrpc's; a request sent malformed
    // was still sent, so a cancellation naming it is not one of a request never sent.
    if (invalid) {
      malformed++
      if (message.id !== undefined && message.id !== null && message.method !== undefined && message.method !== 'notifications/cancelled') sent.set(JSON.stringify(message.id), message)
      continue
    }
    if (message.method !== 'notifications/cancelled') {
      if (message.id !== undefined && message.method !== undefined) sent.set(JSON.stringify(message.id), message)
      continue
    }
    cancellations++
    const id = JSON.stringify(message.params?.requestId)
    const request = sent.get(id)
    if (!request && malformed) unjudged.push(id)
    else if (!request) problems.push(`notifications/cancelled named request ${id}, which the client never sent`)
    else if (request.method === 'initialize') problems.push(`notifications/cancelled named request ${id}, the initialize request`)
    else if (request.params?.task !== undefined) problems.push(`notifications/cancelled named request ${id}, a task-augmented ${request.method} (tasks/cancel is the way to cancel a task)`)
  }
  const title = 'Each notifications/cancelled names a request the client sent, never initialize or a task-augmented request'
  if (problems.length) return { id: 'invariant/cancellation', title, status: 'fail', message: [...new Set(problems)].slice(0, 3).join('; '), spec: SPEC }
  if (unjudged.length) return { id: 'invariant/cancellation', title, status: 'skip', message: `Not testable: notifications/cancelled named request ${[...new Set(unjudged)].slice(0, 3).join(', ')}, which no well-formed request carried, and the client sent messages that were not valid JSON-RPC (a request with a null or missing id cannot be named); invariant/jsonrpc reports the failure`, spec: SPEC }
  if (!cancellations) return { id: 'invariant/cancellation', title, status: 'skip', message: 'nothing to judge: the client sent no notifications/cancelled', spec: SPEC }
  return { id: 'invariant/cancellation', title, status: 'pass', message: `${cancellations} cancellations, each of a request the client sent`, spec: SPEC }
}
