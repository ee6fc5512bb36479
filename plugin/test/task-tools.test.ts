import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { planTools } from '../src/discovery.ts'
import { pollDelay } from '../src/task-call.ts'
import { serveHttp } from './support/http-server.ts'
import { everythingStdio, startHost, stateOf } from './support/host.ts'

const limits = { maxDescriptionChars: 100, maxSchemaChars: 10_000 }
const tool = (name: string, taskSupport?: string) => ({ name, inputSchema: { type: 'object' }, ...(taskSupport ? { execution: { taskSupport } } : {}) })

describe('the wait between polls (pure)', () => {
  it("follows the server's pollInterval within 50 ms-10 s: neither 0 (a busy loop) nor an hour changes the call's limits", () => {
    expect(pollDelay(200)).toBe(200)
    expect(pollDelay(0)).toBe(50)
    expect(pollDelay(-5)).toBe(50)
    expect(pollDelay(3_600_000)).toBe(10_000)
    expect(pollDelay(undefined)).toBe(1_000)
    expect(pollDelay(Number.NaN)).toBe(1_000)
    expect(pollDelay(5, { minPollMs: 1, maxPollMs: 100 })).toBe(5)
  })
})

describe('which tools are called as tasks (pure)', () => {
  const listed = [tool('plain'), tool('forbidden', 'forbidden'), tool('optional', 'optional'), tool('required', 'required')]
  const asTask = (plan: ReturnType<typeof planTools>) => plan.tools.filter((t) => t.asTask).map((t) => t.rawName)

  it('a server without tasks.requests.tools.call: required tools are not registered, with the reason; none is a task', () => {
    const plan = planTools('s', listed, limits)
    expect(plan.tools.map((t) => t.rawName)).toEqual(['plain', 'forbidden', 'optional'])
    expect(asTask(plan)).toEqual([])
    expect(plan.quarantined).toEqual([{ name: 'required', reason: expect.stringMatching(/requires task-based execution, but the server does not declare the capability tasks\.requests\.tools\.call/) }])
  })

  it('a server with the capability: required tools are tasks; optional ones only when preferTaskCalls says so', () => {
    expect(asTask(planTools('s', listed, limits, { serverSupportsTasks: true, preferTaskCalls: false }))).toEqual(['required'])
    expect(asTask(planTools('s', listed, limits, { serverSupportsTasks: true, preferTaskCalls: true }))).toEqual(['optional', 'required'])
  })
})

interface ScriptedTask {
  status: 'working' | 'completed' | 'failed' | 'cancelled'
  result?: unknown
  error?: McpError
}

/**
 * A low-level SDK server that runs tools as tasks by hand, so each test decides when a task
 * finishes, how it fails, and what pollInterval it suggests.
 */
function taskServer(options: { pollInterval?: number; finishAfterPolls?: number; outcome?: 'completed' | 'failed'; failCode?: number; never?: boolean; failGet?: boolean; taskId?: string; holdCreate?: Promise<void> }) {
  const tasks = new Map<string, ScriptedTask>()
  const log: string[] = []
  let next = 0
  const factory = () => {
    const server = new Server({ name: 'tasks', version: '1.0.0' }, { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tool('research', 'required'), tool('quick', 'optional'), tool('broken')] as never }))
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const params = request.params as { name: string; task?: { ttl?: number } }
      log.push(`tools/call ${params.name}${params.task ? ` task(ttl=${params.task.ttl})` : ''}`)
      if (params.name === 'broken') throw new McpError(ErrorCode.InternalError, 'the research database is down')
      if (!params.task) return { content: [{ type: 'text', text: `plain ${params.name}` }] }
      await options.holdCreate
      const taskId = options.taskId ?? `t${++next}`
      tasks.set(taskId, { status: 'working' })
      return { task: { taskId, status: 'working', ttl: params.task.ttl ?? null, createdAt: new Date(0).toISOString(), lastUpdatedAt: new Date(0).toISOString(), pollInterval: options.pollInterval } } as never
    })
    let polls = 0
    server.setRequestHandler(GetTaskRequestSchema, async (request) => {
      const task = tasks.get(request.params.taskId)
      if (!task) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${request.params.taskId}`)
      log.push(`tasks/get ${request.params.taskId}`)
      if (options.failGet) throw new McpError(ErrorCode.InternalError, 'the task store is unavailable')
      if (!options.never && task.status === 'working' && ++polls >= (options.finishAfterPolls ?? 1)) {
        if (options.outcome === 'failed') Object.assign(task, { status: 'failed', error: new McpError(options.failCode ?? ErrorCode.InternalError, 'the research database is down') })
        else Object.assign(task, { status: 'completed', result: { content: [{ type: 'text', text: 'research done' }], structuredContent: { pages: 3 } } })
      }
      return { taskId: request.params.taskId, status: task.status, ttl: null, createdAt: new Date(0).toISOString(), lastUpdatedAt: new Date(0).toISOString(), pollInterval: options.pollInterval } as never
    })
    server.setRequestHandler(GetTaskPayloadRequestSchema, async (request) => {
      log.push(`tasks/result ${request.params.taskId}`)
      const task = tasks.get(request.params.taskId)!
      if (task.error) throw task.error
      return task.result as never
    })
    server.setRequestHandler(CancelTaskRequestSchema, async (request) => {
      log.push(`tasks/cancel ${request.params.taskId}`)
      const task = tasks.get(request.params.taskId)!
      task.status = 'cancelled'
      return { taskId: request.params.taskId, status: 'cancelled', ttl: null, createdAt: new Date(0).toISOString(), lastUpdatedAt: new Date(0).toISOString() } as never
    })
    return server
  }
  return { factory, log }
}

const http = (url: string, extra: Record<string, unknown> = {}) => ({ transport: 'streamable-http', serverName: 'tasks', url, ...extra })

describe('task-augmented calls', () => {
  it('polls until the task completes and returns its result like a plain call would', async () => {
    const scripted = taskServer({ pollInterval: 5, finishAfterPolls: 3 })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url, { maxTotalTimeoutMs: 60_000 }))
    const result = await host.tools.execute('mcp__tasks__research', {})
    expect(result).toMatchObject({ isError: false, value: { content: [{ type: 'text', text: 'research done' }], structuredContent: { pages: 3 } } })
    expect(scripted.log).toEqual(['tools/call research task(ttl=60000)', 'tasks/get t1', 'tasks/get t1', 'tasks/get t1', 'tasks/result t1'])
  })

  it('a failed task ends with the error tasks/result gives, as the spec says it must: the same code as a plain call failing so', async () => {
    const scripted = taskServer({ pollInterval: 5, outcome: 'failed' })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    const result = await host.tools.execute('mcp__tasks__research', {})
    const plain = await host.tools.execute('mcp__tasks__broken', {})
    expect(result).toMatchObject({ isError: true, error: { message: expect.stringMatching(/the research database is down/) } })
    expect(plain.isError && result.isError && result.error.code).toBe(plain.isError && plain.error.code)
  })

  it("a task that fails with the server's own -32001 or -32000 is the server's error (TOOL_ERROR), not the bridge's timeout or a lost connection", async () => {
    for (const failCode of [ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed]) {
      const server = await serveHttp(taskServer({ pollInterval: 5, outcome: 'failed', failCode }).factory)
      const host = await startHost()
      const fiber = await host.load(http(server.url))
      const result = await host.tools.execute('mcp__tasks__research', {})
      expect(result, String(failCode)).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: expect.stringMatching(new RegExp(`JSON-RPC error ${failCode}\\b.*the research database is down`)) } })
      expect(stateOf(fiber)?.kind, String(failCode)).toBe('connected')
    }
  })

  it('a poll that fails ends the call and cancels the task it leaves behind', async () => {
    const scripted = taskServer({ pollInterval: 5, failGet: true })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    expect(await host.tools.execute('mcp__tasks__research', {})).toMatchObject({ isError: true, error: { message: expect.stringMatching(/the task store is unavailable/) } })
    expect(scripted.log).toEqual(['tools/call research task(ttl=600000)', 'tasks/get t1', 'tasks/cancel t1'])
  })

  it('a task id that is not a short printable string ends the call before it is used anywhere', async () => {
    const scripted = taskServer({ pollInterval: 5, taskId: `x${'\u0000'.repeat(10)}${'y'.repeat(5_000)}` })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    const result = await host.tools.execute('mcp__tasks__research', {})
    expect(result).toMatchObject({ isError: true, error: { code: 'INVALID_RESULT', message: expect.stringMatching(/task id is not 1-256 printable characters \(5011 characters\)/) } })
    expect(JSON.stringify(result)).not.toContain('yyyyyyyyyy')
    expect(scripted.log).toEqual(['tools/call research task(ttl=600000)'])
  })

  it('optional tools are plain calls unless preferTaskCalls is set', async () => {
    const scripted = taskServer({ pollInterval: 5 })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    expect(await host.tools.execute('mcp__tasks__quick', {})).toMatchObject({ isError: false, content: [{ text: 'plain quick' }] })
    await host.load(http(server.url, { serverName: 'tasks2', preferTaskCalls: true }))
    expect(await host.tools.execute('mcp__tasks2__quick', {})).toMatchObject({ isError: false, content: [{ text: 'research done' }] })
    expect(scripted.log.filter((line) => line.startsWith('tools/call'))).toEqual(['tools/call quick', 'tools/call quick task(ttl=600000)'])
  })

  it('the caller\'s abort sends tasks/cancel and fails ABORTED', async () => {
    const scripted = taskServer({ pollInterval: 5, never: true })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    const controller = new AbortController()
    const call = host.tools.execute('mcp__tasks__research', {}, { signal: controller.signal })
    await expect.poll(() => scripted.log.filter((line) => line.startsWith('tasks/get')).length).toBeGreaterThan(1)
    controller.abort()
    // The registry answers the caller at once; the bridge cancels the task behind it, with
    // tasks/cancel and never notifications/cancelled, as the spec requires for task-augmented requests.
    expect(await call).toMatchObject({ isError: true, error: { code: 'ABORTED' } })
    await expect.poll(() => scripted.log).toContain('tasks/cancel t1')
    // (An in-flight tasks/get may be cancelled like any plain request; the task-creating call never is.)
    const creating = (server.received as Array<{ id?: unknown; method?: string; params?: Record<string, unknown> }>).find((m) => m.method === 'tools/call')
    expect(creating?.id).toBeDefined()
    const cancelled = server.received.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params?.requestId)
    expect(cancelled).not.toContain(creating?.id)
  })

  it('an abort while the task is being created cancels it with tasks/cancel once its id is known, never with notifications/cancelled', async () => {
    let release = () => {}
    const scripted = taskServer({ pollInterval: 5, never: true, holdCreate: new Promise<void>((resolve) => (release = resolve)) })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    const controller = new AbortController()
    const call = host.tools.execute('mcp__tasks__research', {}, { signal: controller.signal })
    await expect.poll(() => scripted.log).toContain('tools/call research task(ttl=600000)')
    controller.abort()
    expect(await call).toMatchObject({ isError: true, error: { code: 'ABORTED' } })
    release()
    await expect.poll(() => scripted.log).toContain('tasks/cancel t1')
    expect(scripted.log.filter((line) => line.startsWith('tasks/get'))).toEqual([])
    expect(server.received.filter((m) => m.method === 'notifications/cancelled')).toEqual([])
  })

  it('a creation answered after toolCallTimeoutMs ends the call then, and its late task gets tasks/cancel, never notifications/cancelled', async () => {
    let release = () => {}
    const scripted = taskServer({ pollInterval: 5, never: true, holdCreate: new Promise<void>((resolve) => (release = resolve)) })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url, { toolCallTimeoutMs: 300 }))
    const outcome = await host.tools.execute('mcp__tasks__research', {})
    expect(outcome).toMatchObject({ isError: true, error: { code: 'TOOL_TIMEOUT', message: expect.stringMatching(/its task was never created\) did not answer a request in time/) } })
    release()
    await expect.poll(() => scripted.log).toContain('tasks/cancel t1')
    expect(scripted.log.filter((line) => line.startsWith('tasks/get'))).toEqual([])
    // "For task-augmented requests, the tasks/cancel request MUST be used instead of the notifications/cancelled notification."
    expect(server.received.filter((m) => m.method === 'notifications/cancelled')).toEqual([])
  })

  it('a task that never finishes ends at maxTotalTimeoutMs with tasks/cancel, whatever pollInterval the server asks for', async () => {
    const scripted = taskServer({ pollInterval: 3_600_000, never: true })
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url, { toolCallTimeoutMs: 200, maxTotalTimeoutMs: 300 }))
    expect(await host.tools.execute('mcp__tasks__research', {})).toMatchObject({ isError: true, error: { code: 'TOOL_TIMEOUT', message: expect.stringMatching(/maxTotalTimeoutMs \(300 ms\) as a task/) } })
    expect(scripted.log).toContain('tasks/cancel t1')
  })
})

describe('server-everything', () => {
  it('its task-only tool is registered and callable through ctx.tools.execute', async () => {
    const host = await startHost()
    await host.load(everythingStdio())
    expect(host.tools.list().map((t) => t.name)).toContain('mcp__everything__simulate-research-query')
    const result = await host.tools.execute('mcp__everything__simulate-research-query', { topic: 'bridges' })
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringMatching(/bridges/) }] })
  }, 30_000)
})
