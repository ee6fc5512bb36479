import { describe, expect, it } from 'vitest'
import { checkListing, encodeHeaderValue, paramHeaders, scanParamHeaders } from '../src/param-headers.ts'

/** SEP-2243 (MCP 2026-07-28, basic/transports/streamable-http "Custom Headers from Tool Parameters"). */
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties })

describe('x-mcp-header annotations', () => {
  it('finds every annotation reached through properties alone, nested ones included, in schema order', () => {
    const scan = scanParamHeaders(object({ region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' }, opts: object({ level: { type: 'integer', 'x-mcp-header': 'Level' } }) }))
    expect(scan).toEqual({ ok: true, headers: [{ path: ['region'], name: 'Region' }, { path: ['opts', 'level'], name: 'Level' }] })
  })

  it('does not take a property named x-mcp-header, or one inside a default, for an annotation', () => {
    expect(scanParamHeaders(object({ 'x-mcp-header': { type: 'string' }, d: { type: 'object', default: { 'x-mcp-header': 7 } } }))).toEqual({ ok: true, headers: [] })
  })

  // The invalid tools of the spec's constraints list, one per constraint.
  it.each<[string, unknown, RegExp]>([
    ['empty', object({ v: { type: 'string', 'x-mcp-header': '' } }), /is empty/],
    ['not a string', object({ v: { type: 'string', 'x-mcp-header': 5 } }), /not a string/],
    ['a space', object({ v: { type: 'string', 'x-mcp-header': 'My Region' } }), /not an HTTP token/],
    ['a colon', object({ v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }), /not an HTTP token/],
    ['non-ASCII', object({ v: { type: 'string', 'x-mcp-header': 'Région' } }), /not an HTTP token/],
    ['a control character', object({ v: { type: 'string', 'x-mcp-header': 'Region\t1' } }), /not an HTTP token/],
    ['a number', object({ v: { type: 'number', 'x-mcp-header': 'Score' } }), /"number"/],
    ['an object', object({ v: { type: 'object', 'x-mcp-header': 'Data' } }), /"object"/],
    ['an array', object({ v: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }), /"array"/],
    ['null', object({ v: { type: 'null', 'x-mcp-header': 'Nil' } }), /"null"/],
    ['no type', object({ v: { 'x-mcp-header': 'Any' } }), /not one type/],
    ['a repeat', object({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }), /repeats/],
    ['a repeat in another case', object({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }), /ignore case/],
    ['under items', object({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }), /not reached/],
    ['under anyOf', { type: 'object', anyOf: [object({ v: { type: 'string', 'x-mcp-header': 'V' } })] }, /not reached/],
    ['under then', { type: 'object', if: {}, then: object({ v: { type: 'string', 'x-mcp-header': 'V' } }) }, /not reached/],
    ['under $defs', { ...object({ v: { $ref: '#/$defs/r' } }), $defs: { r: { type: 'string', 'x-mcp-header': 'R' } } }, /not reached/],
    ['under additionalProperties', { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } }, /not reached/],
    ['at the root', { type: 'string', 'x-mcp-header': 'Root' }, /the schema root/],
  ])('makes a tool invalid: %s', (_case, schema, reason) => {
    const scan = scanParamHeaders(schema)
    expect(scan.ok).toBe(false)
    expect(scan.ok ? '' : scan.reason).toMatch(reason)
  })

  it('walks a schema far deeper than any stack would allow', () => {
    let schema: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' }
    for (let i = 0; i < 50_000; i++) schema = object({ p: schema })
    const scan = scanParamHeaders(schema)
    expect(scan.ok && scan.headers[0]!.path.length).toBe(50_000)
  })

  it('takes the invalid tools out of a listing and keeps the rest, with their annotations', () => {
    const valid = { name: 'valid_tool', inputSchema: object({ region: { type: 'string', 'x-mcp-header': 'Region' } }) }
    const invalid = { name: 'invalid_number_header', inputSchema: object({ score: { type: 'number', 'x-mcp-header': 'Score' } }) }
    const plain = { name: 'plain', inputSchema: object({}) }
    const checked = checkListing([valid, invalid, plain, 'not a tool'])
    expect(checked.tools).toEqual([valid, plain, 'not a tool'])
    expect(checked.excluded).toEqual([{ name: 'invalid_number_header', reason: expect.stringMatching(/score/) }])
    expect([...checked.headers]).toEqual([['valid_tool', [{ path: ['region'], name: 'Region' }]]])
  })
})

describe('Mcp-Param-* headers of a call', () => {
  it('encodes values as the spec examples show (Value Encoding)', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1')
    expect(encodeHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=')
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=')
    expect(encodeHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=')
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')
    expect(encodeHeaderValue('us west 1')).toBe('us west 1')
    expect(encodeHeaderValue('\tindented')).toBe('=?base64?CWluZGVudGVk?=')
    expect(encodeHeaderValue('')).toBe('=?base64??=')
  })

  it('mirrors each annotated value at its path, converted, and omits absent, null and non-primitive ones', () => {
    const scan = scanParamHeaders(
      object({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', 'x-mcp-header': 'Priority' },
        verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
        debug: { type: 'boolean', 'x-mcp-header': 'Debug' },
        big: { type: 'integer', 'x-mcp-header': 'Big' },
        odd: { type: 'string', 'x-mcp-header': 'Odd' },
        opts: object({ level: { type: 'integer', 'x-mcp-header': 'Level' } }),
        query: { type: 'string' },
      }),
    )
    if (!scan.ok) throw new Error(scan.reason)
    const args = { region: 'us-west1', priority: 42, verbose: false, debug: null, big: 2 ** 60, odd: { no: 1 }, opts: { level: -7 }, query: 'SELECT 1' }
    expect(paramHeaders(scan.headers, args)).toEqual({ 'Mcp-Param-Region': 'us-west1', 'Mcp-Param-Priority': '42', 'Mcp-Param-Verbose': 'false', 'Mcp-Param-Level': '-7' })
    expect(paramHeaders(scan.headers, { opts: 'flat' })).toEqual({})
  })
})
