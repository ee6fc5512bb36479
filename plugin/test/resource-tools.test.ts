import { readdirSync } from 'node:fs'
import { fixtureCommand, startHttpFixture, type BehaviourInput, type HttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { AttachmentStore, ModelCatalog } from '@mcp-bridge/host'
import type { ContentBlock } from '../src/index.ts'
import { afterTest, tempDir } from './support/cleanup.ts'
import { startHost, type TestHost } from './support/host.ts'
import { PNG } from './support/scripted-server.ts'

/**
 * features.resourceTools: the model's list_resources and read_resource tools, over stdio and
 * Streamable HTTP against the real fixture server, in a real Cordis root with the reference
 * tools registry, called through it as a model's call would be.
 */
const RESOURCES: BehaviourInput['resources'] = {
  pageSize: 2,
  items: [
    { uri: 'fixture://notes/1', name: 'one', text: 'first' },
    { uri: 'fixture://notes/2', name: 'two', text: 'second' },
    { uri: 'fixture://bin/0', name: 'bytes', mimeType: 'application/octet-stream', bytes: 300 },
    { uri: 'fixture://pic/0', name: 'pixel', mimeType: 'image/png', blob: PNG },
    { uri: 'fixture://huge/0', name: 'huge', text: 'x', repeatTo: 5_000 },
  ],
}
const OWN_TOOLS: BehaviourInput['tools'] = [
  { name: 'echo', result: { content: [{ type: 'echo' as const }] } },
  { name: 'list_resources', description: 'The server\'s own', result: { content: [{ type: 'text' as const, text: 'own list' }] } },
]
const WITH_RESOURCES: BehaviourInput = { tools: OWN_TOOLS, resources: RESOURCES }
const WITHOUT_RESOURCES: BehaviourInput = { tools: OWN_TOOLS }

const vision = { provider: 'acme', model: 'vision-1' }

const transports = {
  stdio: async (behaviour: BehaviourInput) => ({ transport: 'stdio', ...fixtureCommand(behaviour) }),
  http: async (behaviour: BehaviourInput) => {
    const fixture: HttpFixture = await startHttpFixture(behaviour)
    afterTest(fixture, (f) => f.close())
    return { transport: 'streamable-http', url: fixture.url }
  },
}

const names = (host: TestHost) => host.tools.list().map((tool) => tool.name).sort()
const texts = (content: ContentBlock[]) => content.map((block) => (block.type === 'text' ? block.text : `<${block.type}>`))

describe.each(Object.entries(transports))('resources as model tools over %s', (_name, target) => {
  it('lists page by page and reads text, binary and oversized resources like tool results', async () => {
    const host = await startHost()
    await host.load({ serverName: 'docs', ...(await target(WITH_RESOURCES)), features: { resourceTools: true }, limits: { maxResultTextChars: 1_000 } })
    expect(names(host)).toEqual(['mcp__docs__echo', 'mcp__docs__list_resources', 'mcp__docs__read_resource'])

    const first = await host.tools.execute('mcp__docs__list_resources', {})
    expect(first).toMatchObject({ isError: false, value: { structuredContent: { resources: [{ uri: 'fixture://notes/1', name: 'one' }, { uri: 'fixture://notes/2', name: 'two' }] } } })
    const cursor = ((first as { value: unknown }).value as { structuredContent: { nextCursor: string } }).structuredContent.nextCursor
    expect(typeof cursor).toBe('string')
    expect(JSON.parse(texts(first.content)[0]!)).toMatchObject({ nextCursor: cursor })
    const second = await host.tools.execute('mcp__docs__list_resources', { cursor })
    expect(second).toMatchObject({ isError: false, value: { structuredContent: { resources: [{ uri: 'fixture://bin/0' }, { uri: 'fixture://pic/0' }] } } })

    const note = await host.tools.execute('mcp__docs__read_resource', { uri: 'fixture://notes/2' })
    expect(note).toMatchObject({ isError: false, content: [{ type: 'text', text: 'second' }] })
    const binary = await host.tools.execute('mcp__docs__read_resource', { uri: 'fixture://bin/0' })
    expect(texts(binary.content)).toEqual(['[binary resource fixture://bin/0: application/octet-stream, 300 bytes; the raw contents remain available to programmatic callers]'])
    expect(Buffer.from(((binary as { value: unknown }).value as { structuredContent: { contents: [{ blob: string }] } }).structuredContent.contents[0].blob, 'base64').length).toBe(300)
    // No attachment store in this host: the image is a diagnostic, as a tool's image would be.
    const picture = await host.tools.execute('mcp__docs__read_resource', { uri: 'fixture://pic/0' })
    expect(texts(picture.content)[0]).toMatch(/^\[image unavailable: image\/png; /)
    const huge = await host.tools.execute('mcp__docs__read_resource', { uri: 'fixture://huge/0' })
    expect(texts(huge.content)).toEqual(['x'.repeat(1_000), '[output truncated: showed 1000 of 5000 characters; the full result remains available to programmatic callers]'])

    expect(await host.tools.execute('mcp__docs__read_resource', {})).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS' } })
    expect(await host.tools.execute('mcp__docs__read_resource', { uri: 'fixture://nowhere' })).toMatchObject({
      isError: true,
      error: { message: expect.stringMatching(/resources\/read failed on the server \(JSON-RPC error -32002\)/) },
    })
  })

  it('leaves out the server\'s own list_resources with one warning per sync, and keeps it when the feature is off', async () => {
    const host = await startHost()
    await host.load({ serverName: 'docs', ...(await target(WITH_RESOURCES)), features: { resourceTools: true } })
    expect(await host.tools.execute('mcp__docs__list_resources', {})).toMatchObject({ isError: false, value: { structuredContent: { resources: [{ uri: 'fixture://notes/1' }, { uri: 'fixture://notes/2' }] } } })
    expect(host.logs.filter((line) => line.includes('left out: features.resourceTools'))).toHaveLength(1)

    const plain = await startHost()
    await plain.load({ serverName: 'docs', ...(await target(WITH_RESOURCES)) })
    expect(names(plain)).toEqual(['mcp__docs__echo', 'mcp__docs__list_resources'])
    expect(await plain.tools.execute('mcp__docs__list_resources', {})).toMatchObject({ isError: false, content: [{ type: 'text', text: 'own list' }] })
  })

  it('registers neither tool for a server without resources, and withdraws both when the server goes', async () => {
    const host = await startHost()
    await host.load({ serverName: 'bare', ...(await target(WITHOUT_RESOURCES)), features: { resourceTools: true } })
    expect(names(host)).toEqual(['mcp__bare__echo', 'mcp__bare__list_resources'])
    expect(await host.tools.execute('mcp__bare__list_resources', {})).toMatchObject({ isError: false, content: [{ type: 'text', text: 'own list' }] })

    const fiber = await host.load({ serverName: 'docs', ...(await target(WITH_RESOURCES)), features: { resourceTools: true } })
    expect(names(host).filter((name) => name.startsWith('mcp__docs__'))).toEqual(['mcp__docs__echo', 'mcp__docs__list_resources', 'mcp__docs__read_resource'])
    await fiber.dispose()
    expect(names(host)).toEqual(['mcp__bare__echo', 'mcp__bare__list_resources'])
  })
})

describe('an image resource where the host accepts images', () => {
  it('is shown to a vision model as an image from the attachment store', async () => {
    const host = await startHost()
    const directory = tempDir('bridge-resource-images-')
    await host.ctx.plugin(AttachmentStore, { directory })
    await host.ctx.plugin(ModelCatalog, { models: [{ ...vision, inputModalities: ['text', 'image'] }] })
    await host.load({ serverName: 'docs', transport: 'stdio', ...fixtureCommand(WITH_RESOURCES), features: { resourceTools: true } })
    const picture = await host.tools.execute('mcp__docs__read_resource', { uri: 'fixture://pic/0' }, { route: vision })
    expect(picture).toMatchObject({ isError: false, content: [{ type: 'image', attachment: expect.anything() }] })
    expect(readdirSync(directory).length).toBeGreaterThan(0)
  })
})
