import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, describe, expect, it } from 'vitest'
import type { BehaviourInput } from '../src/index.ts'
import { type Kind, KINDS, liveFixtureChildren, Loose, open, type Opened } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

const RELATED = 'io.modelcontextprotocol/related-task'

const behaviour: BehaviourInput = {
  tools: [
    { name: 'research', execution: { taskSupport: 'required' }, task: { pollIntervalMs: 250, polls: 2 }, result: { content: [{ type: 'text', text: 'research done' }] } },
    { name: 'quick', execution: { taskSupport: 'optional' }, task: { ttlMs: 1234 }, result: { content: [{ type: 'text', text: 'quick done' }] } },
    { name: 'broken', execution: { taskSupport: 'optional' }, task: {}, error: { code: -32603, message: 'the research database is down' } },
    { name: 'refusing', execution: { taskSupport: 'required' }, task: {}, result: { isError: true, content: [{ type: 'text', text: 'no sources' }] } },
    { name: 'endless', execution: { taskSupport: 'required' }, task: { end: 'never', progress: true } },
    { name: 'forgetful', execution: { taskSupport: 'required' }, task: { end: 'lost' } },
    { name: 'asking', execution: { taskSupport: 'required' }, task: { input: true }, result: { content: [{ type: 'text', text: 'answered' }] } },
    { name: 'plain' },
  ],
}

type Task = { taskId: string; status: string; ttl: number | null; pollInterval?: number; statusMessage?: string; createdAt: string; lastUpdatedAt: string }

const request = (client: Client, method: string, params: Record<string, unknown>) => client.request({ method, params } as never, Loose) as Promise<Record<string, unknown>>
const callAsTask = async (client: Client, name: string, extra: Record<string, unknown> = {}) =>
  ((await request(client, 'tools/call', { name, arguments: {}, task: { ttl: 60_000 }, ...extra })) as { task: Task }).task
const get = async (client: Client, taskId: string) => (await request(client, 'tasks/get', { taskId })) as unknown as Task
// McpError prefixes its message with "MCP error <code>: "; the fixture's own words follow.
const codeOf = (promise: Promise<unknown>) =>
  promise.then(() => 'answered', (error: { code?: number; message?: string }) => `${error.code} ${String(error.message).replace(/^MCP error -?\d+: /, '')}`)

describe.each(KINDS)('task-augmented tools over %s', (kind: Kind) => {
  let fx: Opened
  afterAll(() => fx?.close())

  it('declares tasks with requests.tools.call, list and cancel', async () => {
    fx = await open(kind, behaviour)
    expect(fx.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } })
  })

  it('answers -32601 to a required tool called plainly and to a forbidden one called as a task; an optional one plainly is a plain call', async () => {
    expect(await codeOf(request(fx.client, 'tools/call', { name: 'research', arguments: {} }))).toMatch(/^-32601 .*requires task augmentation/)
    expect(await codeOf(callAsTask(fx.client, 'plain'))).toMatch(/^-32601 .*does not support task augmentation/)
    expect(await request(fx.client, 'tools/call', { name: 'quick', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'quick done' }] })
  })

  it('runs a task: working for the scripted polls, then completed; tasks/result carries the related-task metadata', async () => {
    const created = await callAsTask(fx.client, 'research')
    expect(created).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 250, taskId: expect.stringMatching(/^task-[0-9a-f]{16}$/) })
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt)
    const statuses = [await get(fx.client, created.taskId), await get(fx.client, created.taskId), await get(fx.client, created.taskId)].map((task) => task.status)
    expect(statuses).toEqual(['working', 'working', 'completed'])
    expect(await request(fx.client, 'tasks/result', { taskId: created.taskId })).toEqual({
      content: [{ type: 'text', text: 'research done' }],
      _meta: { [RELATED]: { taskId: created.taskId } },
    })
    expect(await codeOf(request(fx.client, 'tasks/cancel', { taskId: created.taskId }))).toBe("-32602 Cannot cancel task: already in terminal status 'completed'")
    const listed = (await request(fx.client, 'tasks/list', {})) as { tasks: Task[] }
    expect(listed.tasks.map((task) => task.taskId)).toContain(created.taskId)
  })

  it('grants its own ttl when scripted; tasks/result blocks until the task ends', async () => {
    const created = await callAsTask(fx.client, 'quick')
    expect(created.ttl).toBe(1234)
    expect(await request(fx.client, 'tasks/result', { taskId: created.taskId })).toMatchObject({ content: [{ type: 'text', text: 'quick done' }] })
  })

  it('fails a task whose tool errs (tasks/result gives the same JSON-RPC error a plain call gets) or answers isError', async () => {
    const broken = await callAsTask(fx.client, 'broken')
    expect(await request(fx.client, 'tasks/result', { taskId: broken.taskId }).catch((error: Error) => error.message)).toMatch(/the research database is down/)
    expect(await get(fx.client, broken.taskId)).toMatchObject({ status: 'failed', statusMessage: 'Tool execution failed: the research database is down' })
    const plain = await codeOf(request(fx.client, 'tools/call', { name: 'broken', arguments: {} }))
    expect(await codeOf(request(fx.client, 'tasks/result', { taskId: broken.taskId }))).toBe(plain)
    const refusing = await callAsTask(fx.client, 'refusing')
    expect(await request(fx.client, 'tasks/result', { taskId: refusing.taskId })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no sources' }] })
    expect((await get(fx.client, refusing.taskId)).status).toBe('failed')
  })

  it('keeps a never-ending task working, with progress on every poll that reaches the client, until tasks/cancel; the blocked tasks/result then ends', async () => {
    // The SDK keeps a progress handler alive past a CreateTaskResult: what arrives, arrives here.
    const received: number[] = []
    const progressed = (count: number) => expect.poll(() => received.length).toBe(count)
    const { task: created } = (await fx.client.request({ method: 'tools/call', params: { name: 'endless', arguments: {} } }, Loose, {
      task: { ttl: 60_000 },
      onprogress: ({ progress }) => received.push(progress),
    })) as unknown as { task: Task }
    expect((await get(fx.client, created.taskId)).status).toBe('working')
    await progressed(1)
    expect((await get(fx.client, created.taskId)).status).toBe('working')
    await progressed(2)
    const blocked = codeOf(request(fx.client, 'tasks/result', { taskId: created.taskId }))
    const cancelled = (await request(fx.client, 'tasks/cancel', { taskId: created.taskId })) as unknown as Task
    expect(cancelled).toMatchObject({ taskId: created.taskId, status: 'cancelled', statusMessage: 'The task was cancelled by request.' })
    expect(await blocked).toMatch(/^-32603 .*was cancelled/)
    expect((await get(fx.client, created.taskId)).status).toBe('cancelled')
    expect(received).toEqual([1, 2])
  })


  it('asks for the requestor (input_required, for every poll) until a tasks/result comes, then ends', async () => {
    const created = await callAsTask(fx.client, 'asking')
    await expect.poll(async () => (await get(fx.client, created.taskId)).status).toBe('input_required')
    expect(await get(fx.client, created.taskId)).toMatchObject({ status: 'input_required', statusMessage: 'The task needs the requestor: call tasks/result.' })
    expect(await request(fx.client, 'tasks/result', { taskId: created.taskId })).toMatchObject({ content: [{ type: 'text', text: 'answered' }] })
    expect((await get(fx.client, created.taskId)).status).toBe('completed')
  })

  it('loses a task: every tasks/* request for it answers -32602, as for an id never issued', async () => {
    const created = await callAsTask(fx.client, 'forgetful')
    expect(created.status).toBe('working')
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect(await codeOf(request(fx.client, method, { taskId: created.taskId }))).toBe('-32602 Failed to retrieve task: Task not found')
    }
    expect(await codeOf(request(fx.client, 'tasks/get', { taskId: 'task-unknown' }))).toBe('-32602 Failed to retrieve task: Task not found')
    expect(((await request(fx.client, 'tasks/list', {})) as { tasks: Task[] }).tasks.map((task) => task.taskId)).not.toContain(created.taskId)
  })
})

describe('a fixture without task options', () => {
  it('declares no tasks capability and answers a required tool plainly, called as a task or not (§Task Support and Handling: the augmentation is ignored)', async () => {
    const fx = await open('http', { tools: [{ name: 'research', execution: { taskSupport: 'required' }, result: { content: [{ type: 'text', text: 'done' }] } }] })
    try {
      expect(fx.client.getServerCapabilities()?.tasks).toBeUndefined()
      expect(await request(fx.client, 'tools/call', { name: 'research', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'done' }] })
      expect(await request(fx.client, 'tools/call', { name: 'research', arguments: {}, task: { ttl: 100 } })).toEqual({ content: [{ type: 'text', text: 'done' }] })
    } finally {
      await fx.close()
    }
  })
})
