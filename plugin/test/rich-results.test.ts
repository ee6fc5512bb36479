import { readdirSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AttachmentStore, ModelCatalog } from '@mcp-bridge/host'
import type { ContentBlock, ImageRef } from '../src/index.ts'
import { tempDir } from './support/cleanup.ts'
import { serveHttp, type InProcessServer } from './support/http-server.ts'
import { startHost, type TestHost } from './support/host.ts'
import { GIF, JPEG, PNG, scriptedToolServer, WEBP, type ScriptedTool } from './support/scripted-server.ts'

const vision = { provider: 'acme', model: 'vision-1' }
const textOnly = { provider: 'acme', model: 'text-1' }
const image = (data: string, mimeType = 'image/png') => ({ type: 'image', data, mimeType })
const text = (t: string) => ({ type: 'text', text: t })

const tools: ScriptedTool[] = [
  { name: 'gallery', result: { content: [text('before'), image(PNG), text('between'), image(GIF, 'image/gif'), image(JPEG, 'image/jpeg'), image(WEBP, 'image/webp'), text('after')] } },
  { name: 'bad_base64', result: { content: [image(PNG), image('not base64!!')] } },
  { name: 'wrong_type', result: { content: [image(PNG, 'image/jpeg')] } },
  { name: 'failing', result: { isError: true, content: [text('render failed'), image(PNG)] } },
  {
    name: 'mixed',
    result: {
      content: [
        text('summary'),
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'mem://notes', mimeType: 'text/plain', text: 'inner' } },
        { type: 'resource_link', name: 'spec', uri: 'https://example.com/spec' },
        { type: 'hologram', data: 'x' },
      ],
    },
  },
  { name: 'typed_ok', outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, result: { content: [text('7')], structuredContent: { n: 7 } } },
  { name: 'typed_bad', outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, result: { content: [text('?')], structuredContent: { n: 'seven' } } },
  { name: 'typed_missing', outputSchema: { type: 'object', properties: { n: { type: 'number' } } }, result: { content: [text('only text')] } },
  { name: 'typed_weird', outputSchema: { type: 'object', properties: { n: { type: 'nonsense-type' } } }, result: { content: [text('x')], structuredContent: { n: 1 } } },
  { name: 'huge', result: { content: [text('x'.repeat(5_000))] } },
]

let host: TestHost | undefined
let server: InProcessServer | undefined
let directory: string
beforeEach(async () => {
  directory = tempDir('bridge-attachments-')
  server = await serveHttp(scriptedToolServer(tools))
})
afterEach(async () => {
  await host?.dispose()
  await server?.close()
  host = server = undefined
})

async function hostWith({ store = true, catalog = true } = {}) {
  host = await startHost()
  if (store) await host.ctx.plugin(AttachmentStore, { directory })
  if (catalog) await host.ctx.plugin(ModelCatalog, { models: [{ ...vision, inputModalities: ['text', 'image'] }, { ...textOnly, inputModalities: ['text'] }] })
  await host.load({ transport: 'streamable-http', serverName: 'rich', url: server!.url, limits: { maxResultTextChars: 1_000 } })
  return host
}

const texts = (content: ContentBlock[]) => content.filter((b) => b.type === 'text').map((b) => (b.type === 'text' ? b.text : ''))

describe('images through the attachment store', () => {
  it('admits a valid batch as durable references in block order, byte-identical on read-back', async () => {
    const h = await hostWith()
    const result = await h.tools.execute('mcp__rich__gallery', {}, { route: vision })
    expect(result.isError).toBe(false)
    expect(result.content.map((b) => (b.type === 'text' ? b.text : b.attachment.mediaType))).toEqual([
      'before', 'image/png', 'between', 'image/gif', 'image/jpeg', 'image/webp', 'after',
    ])
    const refs = result.content.flatMap((b) => (b.type === 'image' ? [b.attachment as ImageRef] : []))
    const store = h.ctx.get('attachments') as AttachmentStore
    const read = await Promise.all(refs.map((ref) => store.readImage(ref)))
    expect(read.map((r) => Buffer.from(r.data).toString('base64'))).toEqual([PNG, GIF, JPEG, WEBP])
    // base64 stays in the canonical value for programmatic callers, never in model content.
    expect(JSON.stringify(result.isError === false && result.value)).toContain(PNG)
    expect(JSON.stringify(result.content)).not.toContain(PNG.slice(0, 20))
  })

  it('turns every image into a diagnostic when one member is malformed, and persists nothing', async () => {
    const h = await hostWith()
    const result = await h.tools.execute('mcp__rich__bad_base64', {}, { route: vision })
    expect(texts(result.content).join('\n').split('\n')).toEqual([
      expect.stringContaining('another image in the same result was invalid'),
      expect.stringContaining('the image data is not valid base64'),
    ])
    expect(readdirSync(directory)).toEqual([])
  })

  it('refuses a batch whose declared type does not match the bytes, persisting nothing', async () => {
    const h = await hostWith()
    const result = await h.tools.execute('mcp__rich__wrong_type', {}, { route: vision })
    expect(texts(result.content)[0]).toMatch(/attachment store refused the images: image 1: declared image\/jpeg but the bytes are image\/png/)
    expect(readdirSync(directory)).toEqual([])
  })

  it.each([
    ['a text-only route', { route: textOnly }, {}, /model "acme\/text-1" does not declare image input/],
    ['no route', {}, {}, /the calling model route is unknown/],
    ['no attachment store', { route: vision }, { store: false }, /no attachment store is mounted/],
    ['no capability service', { route: vision }, { catalog: false }, /no model capability service is mounted/],
  ])('shows diagnostics with %s', async (_label, options, setup, reason) => {
    const h = await hostWith(setup)
    const result = await h.tools.execute('mcp__rich__gallery', {}, options)
    expect(result.content.every((b) => b.type === 'text')).toBe(true)
    expect(texts(result.content).join('\n')).toMatch(reason)
    expect(texts(result.content).join('\n')).toMatch(/^before\n\[image unavailable: image\/png; /)
  })

  it('rejects isError results before any image is persisted', async () => {
    const h = await hostWith()
    const result = await h.tools.execute('mcp__rich__failing', {}, { route: vision })
    expect(result).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: expect.stringContaining('render failed') } })
    expect(readdirSync(directory)).toEqual([])
  })

  it('lets a post-execute policy that replaced the content win over the rich projection', async () => {
    const h = await hostWith()
    h.tools.onPostExecute((_exec, result) => (result.isError ? undefined : { ...result, content: [{ type: 'text', text: 'redacted by policy' }] }))
    const result = await h.tools.execute('mcp__rich__gallery', {}, { route: vision })
    expect(result.content).toEqual([{ type: 'text', text: 'redacted by policy' }])
  })
})

describe('what the model sees of other blocks', () => {
  it('shows audio, embedded resources, links and unknown types as explicit lines', async () => {
    const h = await hostWith()
    const result = await h.tools.execute('mcp__rich__mixed', {})
    expect(texts(result.content)).toEqual([
      [
        'summary',
        '[audio result unsupported: audio/wav; the raw audio remains available to programmatic callers]',
        '[embedded resource unsupported: mem://notes; the raw resource remains available to programmatic callers]',
        'Resource link: spec (https://example.com/spec)',
        '[unsupported MCP content type: hologram]',
      ].join('\n'),
    ])
    expect(result.isError === false && (result.value as { content: unknown[] }).content).toHaveLength(5)
  })

  it('cuts oversized text with a notice of the original size', async () => {
    const h = await hostWith()
    const result = await h.tools.execute('mcp__rich__huge', {})
    expect(texts(result.content)).toEqual(['x'.repeat(1_000), expect.stringMatching(/^\[output truncated: showed 1000 of 5000 characters/)])
  })
})

describe('structuredContent and outputSchema', () => {
  it('keeps matching structured content in the value', async () => {
    const h = await hostWith()
    expect(await h.tools.execute('mcp__rich__typed_ok', {})).toMatchObject({ isError: false, value: { structuredContent: { n: 7 } } })
  })

  it('turns a schema violation into an error result naming the violation', async () => {
    const h = await hostWith()
    expect(await h.tools.execute('mcp__rich__typed_bad', {})).toMatchObject({
      isError: true,
      error: { code: 'INVALID_RESULT', message: expect.stringMatching(/does not match its outputSchema: \/n must be number/) },
    })
  })

  it('accepts a declared schema with no structured content, with a warning', async () => {
    const h = await hostWith()
    expect(await h.tools.execute('mcp__rich__typed_missing', {})).toMatchObject({ isError: false, content: [{ text: 'only text' }] })
    expect(h.logs.join('\n')).toMatch(/"typed_missing" declares an outputSchema but returned no structuredContent/)
  })

  it('runs unconstrained, with a warning, when the schema cannot be compiled', async () => {
    const h = await hostWith()
    expect(await h.tools.execute('mcp__rich__typed_weird', {})).toMatchObject({ isError: false, value: { structuredContent: { n: 1 } } })
    expect(h.logs.join('\n')).toMatch(/outputSchema of "typed_weird" cannot be compiled/)
  })
})
