import type { WireEntry } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { checkTaskNegotiation } from '../src/client/task-negotiation.ts'

const TASKS = { tasks: { requests: { tools: { call: {} } } } }
const initialize = (capabilities: object): WireEntry => ({ dir: 'send', msg: { jsonrpc: '2.0', id: 1, result: { capabilities, protocolVersion: '2025-11-25', serverInfo: { name: 's', version: '1' } } } })
const listing: WireEntry = {
  dir: 'send',
  msg: { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'research', execution: { taskSupport: 'required' } }, { name: 'quick', execution: { taskSupport: 'optional' } }, { name: 'lookup' }] } },
}
let id = 10
const call = (name: string, task?: object): WireEntry => ({ dir: 'recv', msg: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: {}, ...(task && { task }) } } })
const verdict = (wire: WireEntry[]) => checkTaskNegotiation(wire).map((check) => `${check.status}: ${check.message}`)

describe('invariant/task-negotiation (pure)', () => {
  it('passes calls made as each tool allows: required and optional as tasks, optional and absent plainly', () => {
    expect(verdict([initialize(TASKS), listing, call('research', {}), call('quick', { ttl: 5 }), call('quick'), call('lookup')])).toEqual(["pass: 4 tools/call, each as the tool's taskSupport allows"])
  })

  it('fails a required tool called plainly, and a tool without task support called as a task (MUSTs)', () => {
    const [check] = verdict([initialize(TASKS), listing, call('research'), call('lookup', {})])
    expect(check).toMatch(/^fail: research was called without task augmentation, but its execution.taskSupport is "required".*; lookup was called as a task, but its execution.taskSupport is "forbidden" or absent/)
  })

  it('fails any task augmentation on a server that does not declare tasks.requests.tools.call', () => {
    expect(verdict([initialize({ tools: {} }), listing, call('research', {})])).toEqual([expect.stringMatching(/^fail: research was called as a task, but the server does not declare tasks\.requests\.tools\.call/)])
  })

  it('says nothing where tasks never came up, and skips a run without calls', () => {
    expect(verdict([initialize({ tools: {} }), listing, call('research'), call('lookup')])).toEqual([])
    expect(verdict([initialize(TASKS), listing])).toEqual(['skip: nothing to judge: the client sent no tools/call'])
  })
})
