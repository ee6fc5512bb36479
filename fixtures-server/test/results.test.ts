import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sniffImage, wire } from '../src/index.ts'
import { example, fixtureStatus, type Kind, KINDS, liveFixtureChildren, open, type Opened, rawCall } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

type Block = Record<string, string>
const blocks = (result: Record<string, unknown>) => result.content as Block[]
const bytesOf = (block: Block) => Buffer.from(block.data!, 'base64')

// One fixture per transport for the whole file: a stdio start costs far more than a call.
const fixtures = {} as Record<Kind, Opened>
beforeAll(async () => {
  const [http, stdio] = await Promise.all(KINDS.map((kind) => open(kind, example('results.yaml'), { env: { FIXTURE_SECRET: 'hunter2' } })))
  Object.assign(fixtures, { http, stdio })
})
afterAll(() => Promise.all(Object.values(fixtures).map((fx) => fx.close())))

describe.each(KINDS)('tool results over %s', (kind) => {
  let fx: Opened
  beforeAll(() => {
    fx = fixtures[kind]
  })

  it('echoes arguments and sends several text blocks', async () => {
    expect(await fx.client.callTool({ name: 'echo', arguments: { q: 'x', n: [1, 2] } })).toEqual({ content: [{ type: 'text', text: '{"q":"x","n":[1,2]}' }] })
    expect(blocks(await rawCall(fx.client, 'texts')).map((b) => b.text)).toEqual(['one', 'two', 'three'])
  })

  it('sends a valid image of each format, and batches', async () => {
    const images = blocks(await fx.client.callTool({ name: 'images' }))
    expect(images.map((b) => [b.mimeType, sniffImage(bytesOf(b))])).toEqual([
      ['image/png', 'png'],
      ['image/jpeg', 'jpeg'],
      ['image/webp', 'webp'],
      ['image/gif', 'gif'],
    ])
    const batch = blocks(await fx.client.callTool({ name: 'image_batch' }))
    expect(batch).toHaveLength(5)
    expect(new Set(batch.map((b) => b.data)).size).toBe(5)
  })

  it('sends broken images: invalid base64, a lying mimeType, an oversized image', async () => {
    expect(blocks(await rawCall(fx.client, 'bad_base64'))).toEqual([{ type: 'image', data: 'not base64!!', mimeType: 'image/png' }])
    await expect(fx.client.callTool({ name: 'bad_base64' })).rejects.toThrow(/Base64/)
    const [liar] = blocks(await fx.client.callTool({ name: 'wrong_mime' }))
    expect([liar!.mimeType, sniffImage(bytesOf(liar!))]).toEqual(['image/jpeg', 'png'])
    const [huge] = blocks(await fx.client.callTool({ name: 'huge_image' }))
    expect(bytesOf(huge!).length).toBe(2_000_000)
    expect(sniffImage(bytesOf(huge!))).toBe('png')
  })

  it('sends audio, an embedded resource and a resource link', async () => {
    const [audio] = blocks(await fx.client.callTool({ name: 'audio' }))
    expect(audio!.mimeType).toBe('audio/wav')
    expect(bytesOf(audio!).subarray(8, 12).toString()).toBe('WAVE')
    expect(blocks(await fx.client.callTool({ name: 'resource' }))).toEqual([
      { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hello' } },
    ])
    expect(blocks(await fx.client.callTool({ name: 'link' }))).toEqual([
      { type: 'resource_link', uri: 'file:///report.pdf', name: 'report.pdf', mimeType: 'application/pdf' },
    ])
  })

  it('sends isError results and JSON-RPC errors', async () => {
    expect(await fx.client.callTool({ name: 'failing' })).toEqual({ isError: true, content: [{ type: 'text', text: 'the tool failed' }] })
    await expect(rawCall(fx.client, 'rpc_error')).rejects.toMatchObject({ code: -32603, message: 'MCP error -32603: scripted internal error' })
  })

  it('sends structuredContent with and without outputSchema, matching and not', async () => {
    await fx.client.listTools()
    expect((await fx.client.callTool({ name: 'structured' })).structuredContent).toEqual({ n: 42 })
    expect((await fx.client.callTool({ name: 'structured_no_schema' })).structuredContent).toEqual({ free: 'form' })
    expect((await rawCall(fx.client, 'structured_mismatch')).structuredContent).toEqual({ n: 'forty-two' })
    await expect(fx.client.callTool({ name: 'structured_mismatch' })).rejects.toThrow(/does not match the tool's output schema/)
  })

  it('reports progress against the request progressToken until it answers', async () => {
    const seen: Array<{ progress: number; total?: number }> = []
    const result = await fx.client.callTool({ name: 'slow', arguments: { k: 1 } }, undefined, { onprogress: (p) => void seen.push(p) })
    expect(result.content).toEqual([{ type: 'text', text: '{"k":1}' }])
    const expected = [1, 2, 3, 4, 5].map((progress) => ({ progress, total: 5 }))
    const sent = fx
      .wire()
      .filter((entry) => entry.dir === 'send' && 'method' in entry.msg && entry.msg.method === 'notifications/progress')
      .map((entry) => ('params' in entry.msg ? entry.msg.params : undefined))
    expect(sent).toEqual(expected.map((p) => ({ progressToken: expect.anything(), ...p })))
    // The SDK client handles notifications a microtask late, so the last one can lose the race
    // against the answer arriving in the same chunk: what it saw is a prefix of what was sent.
    expect(expected.slice(0, seen.length)).toEqual(seen)
    expect(seen.length).toBeGreaterThan(0)
  })

  it('never answers a hanging tool, and records the cancellation with its reason', async () => {
    const controller = new AbortController()
    const call = fx.client.callTool({ name: 'never' }, undefined, { signal: controller.signal })
    // The fixture has the request once this is on its wire.
    if (fx.http) await fx.http.wire!.waitFor(wire.request('tools/call'))
    controller.abort('user gave up')
    await expect(call).rejects.toThrow(/user gave up/)
    if (fx.http) await fx.http.wire!.waitFor(wire.notification('notifications/cancelled'))
    const { cancellations } = await fixtureStatus(fx.client)
    expect(cancellations).toEqual([{ requestId: expect.any(Number), reason: 'user gave up', method: 'tools/call', tool: 'never', answered: false }])
    const id = cancellations[0]!.requestId
    expect(fx.wire().filter((entry) => 'id' in entry.msg && entry.msg.id === id).map((entry) => entry.dir)).toEqual(['recv'])
  })

  it('sends huge text of an exact size', async () => {
    const [text] = blocks(await fx.client.callTool({ name: 'huge_text' }))
    expect(text!.text!.length).toBe(1_000_000)
  })

  it('reports environment variable names, never values', async () => {
    const [block] = blocks(await fx.client.callTool({ name: 'env_names' }))
    const names = JSON.parse(block!.text!) as string[]
    expect(names).toContain('PATH')
    if (kind === 'stdio') expect(names).toContain('FIXTURE_SECRET')
    expect(block!.text).not.toContain('hunter2')
    expect(block!.text).not.toContain(process.env.PATH)
  })

  it('writes noise to stderr, never to stdout', async () => {
    expect(blocks(await fx.client.callTool({ name: 'noisy' }))).toEqual([{ type: 'text', text: 'quiet on stdout' }])
    await expect.poll(() => fx.stderr).toEqual(expect.arrayContaining(['noise on stderr', 'more noise']))
  })

  it('sends an unknown content block type verbatim', async () => {
    expect(blocks(await rawCall(fx.client, 'unknown_block'))).toEqual([{ type: 'hologram', data: '3d' }])
    await expect(fx.client.callTool({ name: 'unknown_block' })).rejects.toThrow()
  })
})

describe('tool results across transports', () => {
  it('are byte-identical (seeded generation)', async () => {
    const { http, stdio } = fixtures
    for (const name of ['images', 'image_batch', 'audio', 'huge_text']) {
      expect(await rawCall(http.client, name)).toEqual(await rawCall(stdio.client, name))
    }
  })
})
