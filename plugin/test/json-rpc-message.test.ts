import { deserializeMessage as sdkDeserialize } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { deserializeMessage, isMessage, isPlainResult } from '../src/json-rpc-message.ts'

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
