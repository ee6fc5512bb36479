import { describe, expect, it } from 'vitest'
import { McpServers, type ListChangedEvent, type ResourceUpdate } from '../src/features/service.ts'
import { afterTest } from './support/cleanup.ts'
import { servedAs } from './support/features-host.ts'
import { everythingStdio, startHost } from './support/host.ts'

/**
 * Every feature beyond tools against the real @modelcontextprotocol/server-everything over stdio,
 * through the reference host: resources, templates, reads (text and a blob), subscriptions,
 * resource list changes, prompts, completions, instructions and logging.
 */
describe('the mcpServers service against server-everything', () => {
  it('lists, reads, subscribes, follows a list change, gets prompts, completes and shows its logs', async () => {
    const host = await startHost()
    const service = host.ctx.plugin(McpServers)
    await service
    afterTest(service, (fiber) => fiber.dispose())
    const changes: ListChangedEvent[] = []
    host.ctx.on('mcp/list-changed', (event) => void changes.push(event))
    await host.load(everythingStdio('everything', { features: { resources: true, prompts: true, completions: true, instructions: true, logLevel: 'debug' } }))
    // The instance enters mcpServers from a sub-plugin that loads its module on demand
    // (features/attach.ts), which may end after the load resolves: on a loaded machine it did.
    const server = await servedAs(host, 'everything')

    const resources = await server.listResources()
    expect(resources.map((r) => r.uri)).toContain('demo://resource/static/document/architecture.md')
    expect((await server.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}'])
    expect((await server.readResource('demo://resource/static/document/architecture.md')).contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.any(String) })
    expect((await server.readResource('demo://resource/dynamic/blob/1')).contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/blob/1', blob: expect.any(String) })

    expect((await server.listPrompts()).map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']))
    expect(await server.getPrompt('args-prompt', { city: 'Paris' })).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('Paris') } }] })
    expect(await server.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'E' })).toMatchObject({ values: ['Engineering'] })
    expect(await server.complete({ type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, { name: 'resourceId', value: '1' })).toMatchObject({ values: ['1'] })
    expect(server.instructions()).toEqual(expect.any(String))

    // Subscribed updates: once toggled, the server sends them for subscribed URIs every 5 s (its
    // fixed pace); the wait allows six of its intervals.
    const updates: ResourceUpdate[] = []
    const end = await server.subscribe('demo://resource/static/document/architecture.md', (update) => void updates.push(update))
    expect(await host.tools.execute('mcp__everything__toggle-subscriber-updates', {})).toMatchObject({ isError: false })
    await expect.poll(() => updates.length, { timeout: 30_000 }).toBeGreaterThan(0)
    expect(updates[0]).toEqual({ uri: 'demo://resource/static/document/architecture.md' })
    await end()
    // The unsubscribe reached the server, which logs it (logLevel debug shows it).
    await expect.poll(() => host.logs.some((line) => /server log \(info\): Received Unsubscribe Resource request/.test(line))).toBe(true)

    // A session resource added by a tool: resources/list_changed, re-listed whole.
    const added = await host.tools.execute('mcp__everything__gzip-file-as-resource', { name: 'note.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resourceLink' })
    expect(added).toMatchObject({ isError: false })
    await expect.poll(() => changes.find((event) => event.kind === 'resources')?.items.length).toBe(resources.length + 1)
    expect((await server.listResources()).map((r) => r.uri)).toContain('demo://resource/session/note.gz')
  })
})
