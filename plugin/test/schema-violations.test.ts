/**
 * What a bridged definition does with hostile schemas and results: violation messages bounded and
 * redacted before the model or a log sees them, a schema that recurses without end refused as a
 * violation, and patterns the linear-time engine cannot run warned about once and left unchecked.
 */
import { describe, expect, it } from 'vitest'
import { PlannedTool, type DefinitionOptions } from '../src/definition.ts'
import type { BridgedTool } from '../src/discovery.ts'
import { BridgeError } from '../src/errors.ts'
import type { ToolExecution } from '../src/index.ts'
import { createRedactor } from '@mcp-bridge/process'

const exec = { callId: 'c', name: 'n', arguments: {}, signal: new AbortController().signal } as ToolExecution

function definition(tool: Partial<BridgedTool>, answer: unknown, options: Partial<DefinitionOptions> = {}) {
  const warnings: string[] = []
  const sent: unknown[] = []
  const created = new PlannedTool(
    { rawName: 'look', publicName: 'mcp__s__look', description: '', inputSchema: { type: 'object' }, ...tool },
    {
      serverName: 's',
      invoke: async (_raw, args) => (sent.push(args), structuredClone(answer)),
      limits: { maxResultTextChars: 100_000, maxResultBytes: 64 << 20 },
      imageServices: () => ({}),
      warn: (message) => void warnings.push(message),
      ...options,
    },
  ).create()
  return { definition: created, warnings, sent }
}

/** The BridgeError a call fails with (the registry turns it into the error result). */
async function failure(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!BridgeError.is(error)) throw new Error(`expected a BridgeError, got ${String(error)}`)
  return error
}

const stringsOnly = { type: 'object', additionalProperties: { type: 'string' } }

describe('outputSchema violations', () => {
  it('a result with 10,000 violations gets a message under the bound that says how many more', async () => {
    const structuredContent = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, i]))
    const { definition: d } = definition({ outputSchema: stringsOnly }, { content: [], structuredContent })
    const error = await failure(d.execute({}, exec))
    expect(error.code).toBe('INVALID_RESULT')
    // 20 violations of at most 200 characters, and the preamble: nowhere near the 10,000.
    expect(error.message.length).toBeLessThan(5_000)
    expect(error.message).toMatch(/^look returned structuredContent that does not match its outputSchema: \/key0 must be string; /)
    expect(error.message).toMatch(/; and 9980 more$/)
  })

  it('redacts a secret that is a key of the result (an instance path) with the definition’s redactor', async () => {
    const structuredContent = { 'sk-proj-000001LEAKEDSECRETVALUEabcdef0123': 1, 'configured-value-42': 2 }
    const { definition: d } = definition({ outputSchema: stringsOnly }, { content: [], structuredContent }, { redact: createRedactor(['configured-value-42']) })
    const error = await failure(d.execute({}, exec))
    expect(error.message).not.toContain('LEAKEDSECRET')
    expect(error.message).not.toContain('configured-value-42')
    expect(error.message).toContain('<redacted> must be string')
  })

  it('cuts the message at limits.maxResultTextChars with a notice', async () => {
    const structuredContent = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, i]))
    const { definition: d } = definition({ outputSchema: stringsOnly }, { content: [], structuredContent }, { limits: { maxResultTextChars: 120, maxResultBytes: 1 << 20 } })
    const error = await failure(d.execute({}, exec))
    expect(error.message).toMatch(/^look returned structuredContent that does not match its outputSchema: \/key0 must be string; \/key1 must .*… \[cut: showed 120 of \d+ characters\]$/)
  })

  it('checks a catastrophic outputSchema pattern without backtracking', async () => {
    const outputSchema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)*$' } } }
    const { definition: d } = definition({ outputSchema }, { content: [], structuredContent: { s: 'a'.repeat(40) + 'b' } })
    const error = await failure(d.execute({}, exec))
    expect(error).toMatchObject({ code: 'INVALID_RESULT', message: 'look returned structuredContent that does not match its outputSchema: /s must match pattern "^(a|a)*$"' })
  })

  it('an outputSchema that recurses without end refuses the result, it does not throw a RangeError', async () => {
    const { definition: d } = definition({ outputSchema: { type: 'object', $ref: '#' } }, { content: [], structuredContent: {} })
    const error = await failure(d.execute({}, exec))
    expect(error).toMatchObject({ code: 'INVALID_RESULT', message: expect.stringContaining('could not be checked: the schema recurses without end') })
  })

  it('leaves a pattern it cannot run unchecked, with one warning naming the tool and the pattern', async () => {
    const outputSchema = { type: 'object', properties: { s: { type: 'string', pattern: '^(?!secret).*$' } } }
    const { definition: d, warnings } = definition({ outputSchema }, { content: [], structuredContent: { s: 'secret' } })
    for (let i = 0; i < 2; i++) await expect(d.execute({}, exec)).resolves.toMatchObject({ structuredContent: { s: 'secret' } })
    expect(warnings).toEqual(['tool "mcp__s__look": its outputSchema: pattern "^(?!secret).*$" left unchecked: the linear-time regex engine cannot run it (lookaround, a backreference, a repeat over 1000, or a Unicode property it lacks)'])
  })
})

describe('argument violations', () => {
  it('are bounded and redacted the same way, and nothing is sent', async () => {
    const inputSchema = stringsOnly
    const args = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`sk-proj-${String(i).padStart(6, '0')}LEAKEDSECRETVALUEabcdef`, i]))
    const { definition: d, sent } = definition({ inputSchema }, { content: [] })
    const error = await failure(d.execute(args, exec))
    expect(error.code).toBe('INVALID_ARGS')
    expect(error.message.length).toBeLessThan(5_000)
    expect(error.message).not.toContain('LEAKEDSECRET')
    expect(error.message).toMatch(/; and 4980 more$/)
    expect(sent).toEqual([])
  })

  it('an inputSchema that recurses without end refuses the call', async () => {
    const { definition: d, sent } = definition({ inputSchema: { type: 'object', $ref: '#' } }, { content: [] })
    const error = await failure(d.execute({}, exec))
    expect(error).toMatchObject({ code: 'INVALID_ARGS', message: 'invalid arguments for "mcp__s__look": (root) could not be checked: the schema recurses without end (or the value is nested too deep to check)' })
    expect(sent).toEqual([])
  })

  it('an inputSchema pattern it cannot run is left to the server, with one warning', async () => {
    const inputSchema = { type: 'object', properties: { q: { type: 'string', pattern: '(\\w)\\1' } } }
    const { definition: d, warnings, sent } = definition({ inputSchema }, { content: [] })
    await d.execute({ q: 'ab' }, exec)
    await d.execute({ q: 'cd' }, exec)
    expect(sent).toEqual([{ q: 'ab' }, { q: 'cd' }])
    expect(warnings).toEqual([expect.stringMatching(/^tool "mcp__s__look": its inputSchema: pattern "\(\\\\w\)\\\\1" left unchecked: .*; the server still checks its own inputs$/)])
  })
})
