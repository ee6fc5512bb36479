import { createHash } from 'node:crypto'
import { fixtureCommand, startHttpFixture, type BehaviourInput, type HttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { ConnectionStatus } from '@mcp-bridge/host'
import { afterTest } from './support/cleanup.ts'
import { isAlive, startHost, type TestHost } from './support/host.ts'
import { hostWithService, servedAs } from './support/features-host.ts'

/**
 * The `mcpServers` service and the features beyond tools, against the real fixture server over
 * stdio and Streamable HTTP, in a real Cordis root with the reference services.
 */
const BEHAVIOUR: BehaviourInput = {
  instructions: 'Use the notes. Authorization: Bearer sk-live-abcdefghijklmnopqrstuvwx and more',
  tools: [{ name: 'echo', description: 'Echoes', result: { content: [{ type: 'echo' }] } }],
  resources: {
    pageSize: 2,
    items: [
      { uri: 'fixture://notes/1', name: 'one', text: 'first' },
      { uri: 'fixture://notes/2', name: 'two', text: 'second' },
      { uri: 'fixture://notes/3', name: 'three', text: 'third' },
      { uri: 'fixture://bin/0', name: 'bytes', mimeType: 'application/octet-stream', bytes: 300 },
      { uri: 'fixture://notes/5', name: 'five', text: 'fifth' },
    ],
    templates: [{ uriTemplate: 'fixture://notes/{id}', name: 'note' }],
  },
  prompts: { items: [{ name: 'weather', arguments: [{ name: 'city', required: true }], text: 'Weather in {city}?' }] },
  completions: { city: ['Paris', 'Perth', 'Oslo'] },
}

const ALL_FEATURES = { resources: true, prompts: true, completions: true, instructions: true }

/** The live child's pid, as the reference status service tells it. */
function pidOf(host: TestHost, serverName: string): number {
  return (host.ctx.get('mcpStatus') as ConnectionStatus).get(serverName)!.pid!
}

const transports = {
  stdio: async () => ({ transport: 'stdio', ...fixtureCommand(BEHAVIOUR) }),
  http: async () => {
    const fixture: HttpFixture = await startHttpFixture(BEHAVIOUR, { memoryWire: true })
    afterTest(fixture, (f) => f.close())
    return { transport: 'streamable-http', url: fixture.url }
  },
}

describe.each(Object.entries(transports))('the features beyond tools over %s', (_name, target) => {
  it('lists every page of resources and templates, reads text and blobs whole, and refuses what is not there', async () => {
    const host = await hostWithService()
    await host.load({ serverName: 'notes', ...(await target()), features: ALL_FEATURES })
    const server = await servedAs(host, 'notes')
    expect((await server.listResources()).map((r) => r.uri)).toEqual(['fixture://notes/1', 'fixture://notes/2', 'fixture://notes/3', 'fixture://bin/0', 'fixture://notes/5'])
    expect((await server.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(['fixture://notes/{id}'])
    expect(await server.readResource('fixture://notes/3')).toEqual({ contents: [{ uri: 'fixture://notes/3', text: 'third' }] })
    const blob = (await server.readResource('fixture://bin/0')).contents[0]!
    const bytes = Buffer.from('blob' in blob ? blob.blob : '', 'base64')
    expect(bytes.length).toBe(300)
    expect([...bytes.subarray(0, 256)]).toEqual([...Array(256).keys()])
    expect(createHash('sha256').update(bytes).digest('hex')).toMatch(/^[0-9a-f]{64}$/)
    await expect(server.readResource('fixture://nowhere')).rejects.toMatchObject({ code: 'TOOL_ERROR', message: expect.stringMatching(/resources\/read failed on the server \(JSON-RPC error -32002\)/) })
  })

  it('gets a prompt with its arguments, and refuses missing, unknown or non-string ones before sending', async () => {
    const host = await hostWithService()
    await host.load({ serverName: 'asks', ...(await target()), features: ALL_FEATURES })
    const server = await servedAs(host, 'asks')
    expect((await server.listPrompts()).map((p) => p.name)).toEqual(['weather'])
    expect(await server.getPrompt('weather', { city: 'Paris' })).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }] })
    await expect(server.getPrompt('weather', {})).rejects.toMatchObject({ code: 'INVALID_ARGS', message: 'invalid arguments for prompt "weather": missing required argument "city"' })
    await expect(server.getPrompt('weather', { city: 7 } as never)).rejects.toMatchObject({ code: 'INVALID_ARGS', message: expect.stringMatching(/"city" must be a string, not number/) })
    await expect(server.getPrompt('weather', { city: 'Oslo', day: 'monday' })).rejects.toMatchObject({ code: 'INVALID_ARGS', message: expect.stringMatching(/"day" is not one of its arguments \(city\)/) })
    await expect(server.getPrompt('forecast')).rejects.toMatchObject({ code: 'INVALID_ARGS', message: expect.stringMatching(/lists no prompt named "forecast"/) })
  })

  it('completes arguments and gives the instructions bounded and redacted', async () => {
    const host = await hostWithService()
    await host.load({ serverName: 'helps', ...(await target()), features: ALL_FEATURES, limits: { maxDescriptionChars: 40 } })
    const server = await servedAs(host, 'helps')
    expect(await server.complete({ type: 'ref/prompt', name: 'weather' }, { name: 'city', value: 'P' })).toMatchObject({ values: ['Paris', 'Perth'] })
    const instructions = server.instructions()!
    expect(instructions).toMatch(/^Use the notes\./)
    expect(instructions).not.toContain('sk-live-abcdefghijklmnopqrstuvwx')
    expect(instructions).toMatch(/\[cut: showed 40 of \d+ characters\]$/)
  })
})

describe('the mcpServers service', () => {
  it('refuses a feature the configuration leaves off, or the server does not declare, without asking it', async () => {
    const host = await hostWithService()
    const fixture = await startHttpFixture({ tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }], prompts: BEHAVIOUR.prompts }, { memoryWire: true })
    afterTest(fixture, (f) => f.close())
    await host.load({ serverName: 'plain', transport: 'streamable-http', url: fixture.url, features: { resources: true } })
    const server = await servedAs(host, 'plain')
    await expect(server.listPrompts()).rejects.toMatchObject({ code: 'NOT_OFFERED', message: 'features.prompts is off for server "plain": set it to true in the instance\'s configuration to offer it' })
    await expect(server.listResources()).rejects.toMatchObject({ code: 'NOT_OFFERED', message: expect.stringMatching(/does not declare the resources capability/) })
    expect(() => server.instructions()).toThrow(/features\.instructions is off/)
    const methods = fixture.wire!.entries.filter((entry) => entry.dir === 'recv').map((entry) => (entry.msg as { method?: string }).method)
    expect(methods.filter((method) => method?.startsWith('prompts/') || method?.startsWith('resources/'))).toEqual([])
  })

  it('tells the status, disconnects (tools gone, child stopped) and reconnects to a fresh child', async () => {
    const host = await hostWithService()
    const { command, args } = fixtureCommand({ tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }] })
    await host.load({ serverName: 'svc', transport: 'stdio', command, args, killGraceMs: 200 })
    const server = await servedAs(host, 'svc')
    expect(server.status.kind).toBe('connected')
    const first = pidOf(host, 'svc')
    await server.disconnect()
    expect(server.status).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/disconnected on request/) })
    expect(host.tools.list().map((tool) => tool.name)).toEqual([])
    expect(isAlive(first)).toBe(false)
    expect((await server.reconnect()).kind).toBe('connected')
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__svc__echo'])
    const second = pidOf(host, 'svc')
    expect(second).not.toBe(first)
    // Two reconnects at once leave one session: every child they started but the serving one is gone.
    const pids = new Set<number>()
    host.ctx.on('mcp/state', (event) => void (event.pid !== undefined && pids.add(event.pid)))
    await Promise.all([server.reconnect(), server.reconnect()])
    const third = pidOf(host, 'svc')
    expect(pids.size).toBe(2)
    expect([...pids].filter(isAlive)).toEqual([third])
    expect(isAlive(second)).toBe(false)
    expect(await host.tools.execute('mcp__svc__echo', { a: 1 })).toMatchObject({ isError: false })
  })

  it('holds each instance while both are loaded, and forgets it when the instance goes', async () => {
    const host = await hostWithService()
    const { command, args } = fixtureCommand({ tools: [] })
    const fiber = await host.load({ serverName: 'brief', transport: 'stdio', command, args })
    await servedAs(host, 'brief')
    expect(host.ctx.mcpServers.list().map((server) => server.serverName)).toEqual(['brief'])
    await fiber.dispose()
    expect(host.ctx.mcpServers.get('brief')).toBeUndefined()
  })

  it('a host without the service loads the instance as before', async () => {
    const host = await startHost()
    const { command, args } = fixtureCommand({ tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }] })
    await host.load({ serverName: 'bare', transport: 'stdio', command, args, features: ALL_FEATURES })
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__bare__echo'])
    expect(host.ctx.get('mcpServers')).toBeUndefined()
  })
})

describe('server log messages', () => {
  it('reach the host log at the configured level, at most maxLogLinesPerMinute, the rest counted', async () => {
    const host = await hostWithService()
    const { command, args } = fixtureCommand({ logFlood: { count: 500, level: 'warning' }, tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }] })
    const fiber = await host.load({ serverName: 'noisy', transport: 'stdio', command, args, features: { logLevel: 'info', maxLogLinesPerMinute: 5 } })
    // The flood arrives before the call's answer: the fixture sends it as soon as it is initialized.
    expect(await host.tools.execute('mcp__noisy__echo', { still: 'here' })).toMatchObject({ isError: false })
    await expect.poll(() => host.logs.filter((line) => line.includes('server log (warning)')).length).toBe(5)
    await fiber.dispose()
    expect(host.logs.filter((line) => line.includes('server log ('))).toHaveLength(5)
    expect(host.logs.some((line) => /495 server log messages over features\.maxLogLinesPerMinute \(5\) were not shown/.test(line))).toBe(true)
  })

  it('are not asked for or shown when logLevel is off', async () => {
    const host = await hostWithService()
    const { command, args } = fixtureCommand({ logFlood: { count: 50 }, tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }] })
    await host.load({ serverName: 'quiet', transport: 'stdio', command, args })
    expect(await host.tools.execute('mcp__quiet__echo', {})).toMatchObject({ isError: false })
    expect(host.logs.filter((line) => line.includes('server log'))).toEqual([])
  })
})
