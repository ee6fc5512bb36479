import { describe, expect, it, vi } from 'vitest'
import { PlannedTool, toCanonical } from '../src/definition.ts'
import type { ToolDefinition } from '../src/host-contract.ts'
import { projectContent } from '../src/projection.ts'

const text = (t: string) => [{ type: 'text', text: t }]

describe('projectContent', () => {
  it('joins text runs with newlines and keeps block order', () => {
    expect(projectContent([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], 'x')).toEqual(text('a\nb'))
  })

  it('renders resource links as name and URI', () => {
    expect(projectContent([{ type: 'resource_link', name: 'readme', uri: 'file:///r.md' }], 'x')).toEqual(text('Resource link: readme (file:///r.md)'))
  })

  it('turns every other block into an explicit diagnostic, never silence, never base64', () => {
    const [block] = projectContent(
      [
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'mem://x', text: 'secret body' } },
        { type: 'hologram' },
        'stray',
        { type: 'resource_link', uri: 'file:///only-uri' },
      ],
      'x',
    )
    const lines = block?.type === 'text' ? block.text.split('\n') : []
    expect(lines).toEqual([
      expect.stringMatching(/^\[image unavailable: image\/png;/),
      expect.stringMatching(/^\[audio result unsupported: audio\/wav;/),
      expect.stringMatching(/^\[embedded resource unsupported: mem:\/\/x;/),
      '[unsupported MCP content type: hologram]',
      '[unsupported MCP content block: expected an object]',
      '[resource link unavailable: the MCP block is missing its name or URI]',
    ])
    expect(JSON.stringify(block)).not.toContain('iVBORw0KGgo')
    expect(JSON.stringify(block)).not.toContain('secret body')
  })

  it('says so when nothing is visible', () => {
    expect(projectContent([], 'quiet')).toEqual(text('(quiet returned no model-visible content)'))
  })
})

const png = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }
const ref = (id: string) => ({ attachmentId: id, mediaType: 'image/png', bytes: 8 })
const tail = 'the raw image remains available to programmatic callers]'
const textOf = (blocks: ReturnType<typeof projectContent>) => blocks.map((b) => (b.type === 'text' ? b.text : `<image ${b.attachment.attachmentId}>`))

describe('projectContent: images', () => {
  it('puts each admitted image in its place, by its own reference, splitting the text run around it', () => {
    const blocks = [{ type: 'text', text: 'before' }, png, { type: 'text', text: 'between' }, png, { type: 'text', text: 'after' }]
    expect(projectContent(blocks, 'x', { kind: 'admitted', refs: [ref('first'), ref('second')] })).toEqual([
      { type: 'text', text: 'before' },
      { type: 'image', attachment: ref('first') },
      { type: 'text', text: 'between' },
      { type: 'image', attachment: ref('second') },
      { type: 'text', text: 'after' },
    ])
  })

  it('starts with the image when the result does, without an empty text block before it', () => {
    expect(projectContent([png, { type: 'text', text: 'caption' }], 'x', { kind: 'admitted', refs: [ref('only')] })).toEqual([
      { type: 'image', attachment: ref('only') },
      { type: 'text', text: 'caption' },
    ])
  })

  it('gives each refused image its own reason, in order, and never its data', () => {
    const [block] = projectContent([png, { type: 'text', text: 'mid' }, { ...png, mimeType: 'image/jpeg' }], 'x', { kind: 'refused', reasons: ['too large', 'the model takes no images'] })
    expect(block).toEqual({
      type: 'text',
      text: [`[image unavailable: image/png; too large; ${tail}`, 'mid', `[image unavailable: image/jpeg; the model takes no images; ${tail}`].join('\n'),
    })
  })

  it('says an image without an outcome was not admitted, and names an unknown or overlong media type safely', () => {
    const long = `image/${'x'.repeat(200)}`
    expect(textOf(projectContent([png, { type: 'image', data: 'AAAA' }, { type: 'image', data: 'AAAA', mimeType: long }], 'x'))).toEqual([
      [
        `[image unavailable: image/png; this result was not admitted to model context; ${tail}`,
        `[image unavailable: unknown media type; this result was not admitted to model context; ${tail}`,
        `[image unavailable: ${long.slice(0, 100)}; this result was not admitted to model context; ${tail}`,
      ].join('\n'),
    ])
  })
})

describe('projectContent: every block that cannot be shown says why', () => {
  const lines = (...blocks: unknown[]) => textOf(projectContent(blocks, 'x'))[0]!.split('\n')

  it('is not fooled by a lone block that only looks like text', () => {
    expect(lines({ type: 'hologram', text: 'shown as text?' })).toEqual(['[unsupported MCP content type: hologram]'])
    expect(lines({ type: 'text', text: ['not', 'a', 'string'] })).toEqual(['[malformed text block: "text" is not a string]'])
    expect(lines({ type: 'text', text: 42 })).toEqual(['[malformed text block: "text" is not a string]'])
  })

  it('turns a block that is not an object into a diagnostic, alone or among others', () => {
    for (const stray of [null, undefined, 'stray', 42, ['text']]) {
      expect(lines(stray)).toEqual(['[unsupported MCP content block: expected an object]'])
    }
    expect(lines(null, ['text'], { type: 'text', text: 'ok' })).toEqual([
      '[unsupported MCP content block: expected an object]',
      '[unsupported MCP content block: expected an object]',
      'ok',
    ])
  })

  it('names the type it does not support, cut to 64 characters, or says it is missing', () => {
    expect(lines({}, { type: 7 }, { type: '' }, { type: 't'.repeat(100) })).toEqual([
      '[unsupported MCP content type: missing]',
      '[unsupported MCP content type: missing]',
      '[unsupported MCP content type: ]',
      `[unsupported MCP content type: ${'t'.repeat(64)}]`,
    ])
  })

  it('explains an audio block and an embedded resource, with whatever identifies them', () => {
    expect(lines({ type: 'audio', data: 'UklGRg==' }, { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' })).toEqual([
      '[audio result unsupported: unknown media type; the raw audio remains available to programmatic callers]',
      '[audio result unsupported: audio/wav; the raw audio remains available to programmatic callers]',
    ])
    const uri = `mem://${'u'.repeat(300)}`
    expect(lines({ type: 'resource' }, { type: 'resource', resource: null }, { type: 'resource', resource: { text: 'body' } }, { type: 'resource', resource: { uri } })).toEqual([
      '[embedded resource unsupported; the raw resource remains available to programmatic callers]',
      '[embedded resource unsupported; the raw resource remains available to programmatic callers]',
      '[embedded resource unsupported; the raw resource remains available to programmatic callers]',
      `[embedded resource unsupported: ${uri.slice(0, 200)}; the raw resource remains available to programmatic callers]`,
    ])
  })

  it('needs both a name and a URI to show a resource link', () => {
    const missing = '[resource link unavailable: the MCP block is missing its name or URI]'
    expect(lines({ type: 'resource_link', name: 'readme' }, { type: 'resource_link', uri: 'file:///r.md' }, { type: 'resource_link', name: 'readme', uri: 7 })).toEqual([missing, missing, missing])
  })

  it('treats content that is not a list as empty', () => {
    expect(projectContent(undefined, 'quiet')).toEqual(text('(quiet returned no model-visible content)'))
    expect(projectContent('t', 'quiet')).toEqual(text('(quiet returned no model-visible content)'))
  })
})

describe('projectContent: the text limit', () => {
  const note = (max: number, total: number) => `[output truncated: showed ${max} of ${total} characters; the full result remains available to programmatic callers]`

  it('keeps text of exactly the limit whole, alone or in a run', () => {
    expect(projectContent(text('abcd'), 'x', undefined, 4)).toEqual(text('abcd'))
    expect(projectContent([...text('ab'), ...text('c')], 'x', undefined, 4)).toEqual(text('ab\nc'))
  })

  it('cuts a lone text block over the limit and says how much there was', () => {
    expect(projectContent(text('abcdef'), 'x', undefined, 4)).toEqual([...text('abcd'), ...text(note(4, 6))])
  })

  it('counts only text against the limit, keeps images, and shows nothing more once the budget is spent', () => {
    const refs = { kind: 'admitted' as const, refs: [ref('one'), ref('two')] }
    const blocks = [...text('abcd'), png, ...text('efgh'), png, ...text('ij')]
    expect(projectContent(blocks, 'x', refs, 4)).toEqual([
      ...text('abcd'),
      { type: 'image', attachment: ref('one') },
      { type: 'image', attachment: ref('two') },
      ...text(note(4, 10)),
    ])
    expect(projectContent(blocks, 'x', refs, 6)).toEqual([
      ...text('abcd'),
      { type: 'image', attachment: ref('one') },
      ...text('ef'),
      { type: 'image', attachment: ref('two') },
      ...text(note(6, 10)),
    ])
  })
})

describe('toCanonical', () => {
  it('keeps complete blocks and structuredContent', () => {
    const blocks = [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]
    expect(toCanonical({ content: blocks, structuredContent: { n: 1 } }, 'x')).toEqual({ content: blocks, structuredContent: { n: 1 } })
  })

  it('rejects isError results with their text and malformed results with a code', () => {
    expect(() => toCanonical({ isError: true, content: text('no such file') }, 'read')).toThrow('no such file')
    expect(() => toCanonical('nope', 'read')).toThrow(/not an object/)
    expect(() => toCanonical({ content: 'nope' }, 'read')).toThrow(/not an array/)
  })

  it('refuses an isError that is not a boolean: "true" as a string is neither a failure nor a success', () => {
    for (const isError of ['true', 1, null]) {
      expect(() => toCanonical({ isError, content: text('done') }, 'read')).toThrow(expect.objectContaining({ code: 'INVALID_RESULT', message: expect.stringMatching(/"isError" that is not a boolean/) }))
    }
    expect(toCanonical({ isError: false, content: text('done') }, 'read').content).toEqual(text('done'))
  })

  it('measures a result against limits.maxResultBytes without serialising it, exactly at the limit (issue 40)', () => {
    const result = { content: [{ type: 'text', text: 'é'.repeat(50_000) }], structuredContent: { n: 1 } }
    const size = Buffer.byteLength(JSON.stringify(result))
    const stringify = vi.spyOn(JSON, 'stringify')
    try {
      expect(toCanonical(result, 'x', { maxResultBytes: size }).content).toBe(result.content)
      expect(toCanonical(result, 'x', { maxResultBytes: 1 << 20 }).content).toBe(result.content)
      expect(stringify).not.toHaveBeenCalled()
    } finally {
      stringify.mockRestore()
    }
    expect(() => toCanonical(result, 'x', { maxResultBytes: size - 1 })).toThrow(`x returned ${size} bytes, over limits.maxResultBytes (${size - 1})`)
  })
})

describe("what the model sees of a bridged tool's result", () => {
  const definition = new PlannedTool(
    { rawName: 'stats', publicName: 'mcp__s__stats', description: '', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
    { serverName: 's', invoke: async () => ({}), limits: { maxResultTextChars: 1000, maxResultBytes: 1 << 20 }, imageServices: () => ({}), warn: () => {} },
  ).create() as ToolDefinition & { output: { render(value: unknown): unknown } }

  it('is the structuredContent as JSON when that is all the server sent', () => {
    expect(definition.output.render({ content: [], structuredContent: { n: 1, tags: ['a'] } })).toEqual(text('{"n":1,"tags":["a"]}'))
  })

  it('is the content when there is any, and the empty notice when there is nothing at all', () => {
    expect(definition.output.render({ content: text('one'), structuredContent: { n: 1 } })).toEqual(text('one'))
    expect(definition.output.render({ content: [] })).toEqual(text('(stats returned no model-visible content)'))
  })

  it('follows the same rule for an error result: its structuredContent as JSON when that is all there is, cut at the same limit', () => {
    const failure = (result: Record<string, unknown>, limits = {}) => {
      try {
        toCanonical(result, 'stats', limits)
      } catch (error) {
        return error as { code: string; message: string }
      }
      throw new Error('expected the error result to be refused')
    }
    expect(failure({ isError: true, content: [], structuredContent: { error: 'quota exceeded', retryAfter: 30 } })).toMatchObject({
      code: 'TOOL_ERROR',
      message: '{"error":"quota exceeded","retryAfter":30}',
    })
    // No content at all counts as none, as on the success path; content wins over structuredContent.
    expect(failure({ isError: true, structuredContent: { error: 'gone' } }).message).toBe('{"error":"gone"}')
    expect(failure({ isError: true, content: text('denied'), structuredContent: { error: 'gone' } }).message).toBe('denied')
    expect(failure({ isError: true, content: [] }).message).toBe('(stats returned no model-visible content)')
    const long = failure({ isError: true, content: [], structuredContent: { detail: 'x'.repeat(5000) } }, { maxResultTextChars: 1000 })
    expect(long.message.startsWith('{"detail":"xxx')).toBe(true)
    expect(long.message).toMatch(/… \[cut: showed 1000 of 5013 characters\]$/)
    expect(failure({ isError: true, content: [], structuredContent: { detail: 'x'.repeat(5000) } }, { maxResultBytes: 1000 })).toMatchObject({ code: 'INVALID_RESULT' })
  })
})
