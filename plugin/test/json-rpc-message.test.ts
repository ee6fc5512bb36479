import { deserializeMessage as sdkDeserialize } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { refusedAnswer } from '@mcp-bridge/process'
import { deserializeMessage, isMessage, isPlainResult, MALFORMED_MARK, malformedAnswer } from '../src/json-rpc-message.ts'

/** Values shaped like JSON-RPC messages, near misses included: every key optional, odd values. */
const odd = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean(), fc.array(fc.jsonValue(), { maxLength: 2 }), fc.constant(2 ** 60))
const result = fc.oneof(
  fc.dictionary(fc.constantFrom('content', 'isError', 'structuredContent', 'x'), fc.jsonValue(), { maxKeys: 3 }),
  fc.record({ _meta: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 }), odd), content: fc.jsonValue() }, { requiredKeys: [] }),
  odd,
)
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), odd),
    id: fc.oneof(fc.string(), fc.integer(), fc.double(), odd),
    result,
    method: fc.oneof(fc.constantFrom('tools/call', 'notifications/progress'), odd),
    params: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 }), odd),
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), odd),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
)

/** The three keys of a result always there, their values often off. */
const nearResult = fc.record({ jsonrpc: fc.oneof(fc.constant('2.0'), odd), id: fc.oneof(fc.integer(), fc.string(), odd), result })

describe('the JSON-RPC message rule', () => {
  it('takes the shortcut for a plain result, and only for one', () => {
    expect(isPlainResult({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'hi' }] } })).toBe(true)
    expect(isPlainResult({ jsonrpc: '2.0', id: 'a', result: {} })).toBe(true)
    expect(isPlainResult({ jsonrpc: '2.0', id: 3, result: { _meta: {} } })).toBe(false)
    expect(isPlainResult({ jsonrpc: '2.0', id: 3.5, result: {} })).toBe(false)
    expect(isPlainResult({ jsonrpc: '2.0', id: 3, result: {}, extra: 1 })).toBe(false)
    expect(isPlainResult({ jsonrpc: '2.0', id: 3, result: [] })).toBe(false)
  })

  it('accepts only what the SDK accepts, and parses every line as the SDK does', () => {
    let shortcuts = 0
    fc.assert(
      fc.property(fc.oneof(message, nearResult), (value) => {
        const sdk = JSONRPCMessageSchema.safeParse(value)
        if (isPlainResult(value)) {
          shortcuts++
          expect(sdk.success).toBe(true)
        }
        expect(isMessage(value)).toBe(sdk.success)
        const line = JSON.stringify(value)
        if (sdk.success) expect(deserializeMessage(line)).toEqual(sdkDeserialize(line))
        else expect(() => deserializeMessage(line)).toThrow()
      }),
      { numRuns: 3000, seed: 20 },
    )
    // The shortcut was exercised, not only the schema.
    expect(shortcuts).toBeGreaterThan(100)
  })
})

describe('refusedAnswer: a line the SDK refuses that still answers a request', () => {
  it('names the request and what is wrong', () => {
    expect(refusedAnswer({ jsonrpc: '2.0', id: 4, result: [1] })).toEqual({ id: 4, problem: 'its "result" is an array, not an object' })
    expect(refusedAnswer({ jsonrpc: '2.0', id: 'a', result: null })?.problem).toBe('its "result" is null, not an object')
    expect(refusedAnswer({ jsonrpc: '2.0', id: 4, result: 'ok' })?.problem).toBe('its "result" is a string, not an object')
    expect(refusedAnswer({ jsonrpc: '1.0', id: 4, result: {} })?.problem).toBe('its "jsonrpc" is not "2.0"')
    expect(refusedAnswer({ jsonrpc: '2.0', id: 4, result: {}, error: { code: 1, message: 'x' } })?.problem).toBe('it has both "result" and "error"')
    expect(refusedAnswer({ jsonrpc: '2.0', id: 4, error: 'broken' })?.problem).toBe('"error" is not an object with an integer "code" and a string "message"')
    expect(refusedAnswer({ jsonrpc: '2.0', id: 4 })?.problem).toBe('it has neither "result" nor "error"')
  })

  it('is undefined for what answers no request: a request or notification, no id, an id of another type, not an object', () => {
    expect(refusedAnswer({ jsonrpc: '2.0', id: 4, method: 'ping', result: [] })).toBeUndefined()
    expect(refusedAnswer({ jsonrpc: '2.0', result: [] })).toBeUndefined()
    expect(refusedAnswer({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })).toBeUndefined()
    expect(refusedAnswer([{ jsonrpc: '2.0', id: 4, result: {} }])).toBeUndefined()
    expect(refusedAnswer('text')).toBeUndefined()
  })

  it('becomes an error response the SDK accepts, marked as the bridge\'s refusal', () => {
    const answer = malformedAnswer({ id: 4, problem: 'its "result" is an array, not an object' })
    expect(JSONRPCMessageSchema.safeParse(answer).success).toBe(true)
    expect(answer).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32603, message: expect.stringContaining('"result" is an array'), data: { [MALFORMED_MARK]: true } } })
  })
})
