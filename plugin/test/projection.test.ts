import { describe, expect, it } from 'vitest'
import { toCanonical } from '../src/definition.ts'
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
})
