import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../model.ts'
import { ELICITATION_COMPLETE_IGNORED } from './asks-rules.ts'
import { citeRule } from './rules.ts'

/**
 * Pure: how a client took the server's `notifications/elicitation/complete` for an id it never
 * saw in an `elicitation/create` or a -32042 error, or for one completed already (MCP 2025-11-25
 * client/elicitation: "Clients: MUST ignore notifications referencing unknown or already-completed
 * IDs."). What the wire can show of not ignoring one is an answer to it: a response the client
 * sends for no request the server made (a notification has no id to answer). That the client goes
 * on working after them is the scenario's following call, which cites the same sentence. Judged
 * only at 2025-11-25, the one revision that has the notification, and only where a server sent one
 * for such an id.
 */
export function checkElicitationComplete(wire: WireEntry[], revision: string): CheckResult[] {
  if (revision !== ELICITATION_COMPLETE_IGNORED.from) return []
  const known = new Set<string>()
  const completed = new Set<string>()
  const serverRequests = new Set<string>()
  let ignorable = 0
  const answers: string[] = []
  for (const { dir, msg } of wire) {
    const m = msg as { id?: unknown; method?: string; params?: { elicitationId?: unknown }; result?: unknown; error?: { data?: { elicitations?: unknown } } }
    if (dir === 'send') {
      if (m.method !== undefined && m.id !== undefined) serverRequests.add(JSON.stringify(m.id))
      if (m.method === 'elicitation/create' && typeof m.params?.elicitationId === 'string') known.add(m.params.elicitationId)
      for (const required of Array.isArray(m.error?.data?.elicitations) ? m.error.data.elicitations : []) {
        const id = (required as { elicitationId?: unknown } | null)?.elicitationId
        if (typeof id === 'string') known.add(id)
      }
      if (m.method === 'notifications/elicitation/complete') {
        const id = typeof m.params?.elicitationId === 'string' ? m.params.elicitationId : undefined
        if (id === undefined || !known.has(id) || completed.has(id)) ignorable++
        if (id !== undefined && known.has(id)) completed.add(id)
      }
    } else if (ignorable && m.method === undefined && ('result' in m || 'error' in m) && !serverRequests.has(JSON.stringify(m.id))) {
      answers.push(`answered with ${'error' in m ? 'an error' : 'a result'} (id ${JSON.stringify(m.id) ?? 'absent'}) that no server request asked for`)
    }
  }
  if (!ignorable) return []
  const id = 'asks/elicitation-complete-ignored'
  const title = 'notifications/elicitation/complete for an unknown or already-completed elicitationId is ignored'
  const spec = citeRule(ELICITATION_COMPLETE_IGNORED, revision)
  if (answers.length) return [{ id, title, status: 'fail', message: `${ignorable} such notification(s); the client ${answers.slice(0, 3).join('; ')}${answers.length > 3 ? ` (and ${answers.length - 3} more)` : ''}`, spec }]
  return [{ id, title, status: 'pass', message: `${ignorable} such notification(s), none answered`, spec }]
}
