import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../model.ts'
import { clientRule, clientSpec, runRevision, type ClientRuleKey } from './rules.ts'

type Message = { id?: unknown; method?: string; params?: { requestId?: unknown; task?: unknown } }

/**
 * Pure: every notifications/cancelled the client sent names a request it had sent, never
 * initialize, never a task-augmented request (that sentence is 2025-11-25's only: on an older
 * revision a `task` parameter means nothing and is not judged). Each verdict cites the sentence
 * broken, as the revision the client negotiated states it. Judged against the latest request with that id
 * (over HTTP a new session may reuse ids). Whether the client still believed the request to be
 * in progress is not judged: the server's log cannot tell when the client read the answer.
 */
export function checkCancellations(wire: WireEntry[], revision: string = runRevision(wire)): CheckResult {
  const sent = new Map<string, Message>()
  const problems: Array<{ rule: ClientRuleKey; text: string }> = []
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
    else if (!request) problems.push({ rule: 'cancellation/issued', text: `notifications/cancelled named request ${id}, which the client never sent` })
    else if (request.method === 'initialize') problems.push({ rule: 'cancellation/initialize', text: `notifications/cancelled named request ${id}, the initialize request` })
    else if (request.params?.task !== undefined && clientRule('cancellation/task', revision))
      problems.push({ rule: 'cancellation/task', text: `notifications/cancelled named request ${id}, a task-augmented ${request.method} (tasks/cancel is the way to cancel a task)` })
  }
  const title = 'Each notifications/cancelled names a request the client sent, never initialize or a task-augmented request'
  const SPEC = clientSpec('cancellation/issued', revision)
  if (problems.length) return { id: 'invariant/cancellation', title, status: 'fail', message: [...new Set(problems.map((p) => p.text))].slice(0, 3).join('; '), spec: clientSpec(problems[0]!.rule, revision) }
  if (unjudged.length) return { id: 'invariant/cancellation', title, status: 'skip', message: `Not testable: notifications/cancelled named request ${[...new Set(unjudged)].slice(0, 3).join(', ')}, which no well-formed request carried, and the client sent messages that were not valid JSON-RPC (a request with a null or missing id cannot be named); invariant/jsonrpc reports the failure`, spec: SPEC }
  if (!cancellations) return { id: 'invariant/cancellation', title, status: 'skip', message: 'nothing to judge: the client sent no notifications/cancelled', spec: SPEC }
  return { id: 'invariant/cancellation', title, status: 'pass', message: `${cancellations} cancellations, each of a request the client sent`, spec: SPEC }
}
