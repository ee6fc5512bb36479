import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../model.ts'

const ID = 'invariant/task-negotiation'
const TITLE = "Each tools/call is task-augmented exactly as the server's capabilities and the tool's execution.taskSupport allow"
const SPEC = {
  ref: 'MCP 2025-11-25 §basic/utilities/tasks Tool-Level Negotiation',
  url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#tool-level-negotiation',
}

type Message = { method?: string; params?: { name?: unknown; task?: unknown }; result?: { capabilities?: { tasks?: { requests?: { tools?: { call?: unknown } } } }; tools?: unknown } }

/**
 * Pure: the three MUSTs of tool-level negotiation, judged from the wire for every client: no task
 * augmentation on a server without `tasks.requests.tools.call`; with it, never for a tool whose
 * taskSupport is absent or "forbidden", and always for a "required" one. Each call is judged
 * against the listing the server had last sent. Returns nothing for a run where the server
 * declared no task support and no call carried `task` (the question never arose), so scenarios
 * without tasks gain no check.
 */
export function checkTaskNegotiation(wire: WireEntry[]): CheckResult[] {
  let declared = false
  let augmented = false
  const support = new Map<string, string>()
  const problems: string[] = []
  let calls = 0
  for (const { dir, msg } of wire) {
    const message = msg as Message
    if (dir === 'send' && message.result?.capabilities) declared ||= isObject(message.result.capabilities.tasks?.requests?.tools?.call)
    if (dir === 'send' && Array.isArray(message.result?.tools)) {
      for (const tool of message.result.tools as Array<{ name?: unknown; execution?: { taskSupport?: unknown } }>) {
        if (typeof tool?.name === 'string') support.set(tool.name, String(tool.execution?.taskSupport ?? 'forbidden'))
      }
    }
    if (dir !== 'recv' || message.method !== 'tools/call') continue
    calls++
    const name = String(message.params?.name)
    const asTask = message.params?.task !== undefined
    augmented ||= asTask
    const taskSupport = support.get(name) ?? 'forbidden'
    if (asTask && !declared) problems.push(`${name} was called as a task, but the server does not declare tasks.requests.tools.call ("clients MUST NOT attempt to use task augmentation on that server's tools")`)
    else if (asTask && taskSupport === 'forbidden') problems.push(`${name} was called as a task, but its execution.taskSupport is ${support.has(name) ? '"forbidden" or absent' : 'unknown (never listed)'} ("clients MUST NOT attempt to invoke the tool as a task")`)
    else if (!asTask && declared && taskSupport === 'required') problems.push(`${name} was called without task augmentation, but its execution.taskSupport is "required" ("clients MUST invoke the tool as a task")`)
  }
  if (!declared && !augmented) return []
  if (problems.length) return [{ id: ID, title: TITLE, status: 'fail', message: problems.slice(0, 3).join('; '), spec: SPEC }]
  if (calls === 0) return [{ id: ID, title: TITLE, status: 'skip', message: 'nothing to judge: the client sent no tools/call', spec: SPEC }]
  return [{ id: ID, title: TITLE, status: 'pass', message: `${calls} tools/call, each as the tool's taskSupport allows`, spec: SPEC }]
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
