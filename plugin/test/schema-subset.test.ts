import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { canonicalValueSchema, hostStructuredSchema } from '../src/output-contract.ts'
import { isInSchemaSubset, subsetViolations } from '../src/schema-subset.ts'

// The same verdicts are checked against the real @deepseek-ai/dsh-tools by test/dsh/drop-in.test.ts.
const corpus = JSON.parse(readFileSync(new URL('./fixtures/schema-subset.json', import.meta.url), 'utf8')) as {
  cases: Array<{ note: string; supported: boolean; schema: unknown }>
}

describe('the output-schema subset (pure)', () => {
  it.each(corpus.cases)('$note: supported=$supported', ({ schema, supported }) => {
    expect(isInSchemaSubset(schema), subsetViolations(schema).join('; ')).toBe(supported)
  })

  it('names every violation with its path, not only the first', () => {
    expect(subsetViolations({ type: 'object', properties: { a: { type: 'number', minimum: 0 }, b: { anyOf: [] } }, required: ['c'] })).toEqual([
      'schema.properties.a.minimum is not a supported keyword',
      'schema.properties.b.anyOf is not a supported keyword',
      'schema.required names "c" which is not in properties',
    ])
  })

  it('refuses a circular schema instead of walking it forever', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} }
    ;(node.properties as Record<string, unknown>).self = node
    expect(subsetViolations(node)).toEqual(['schema.properties.self is circular'])
  })
})

describe('the schema of the canonical value', () => {
  const structured = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }

  it('constrains structuredContent by an outputSchema in the subset, and never requires it', () => {
    const schema = canonicalValueSchema(structured)
    expect(schema).toEqual({
      type: 'object',
      properties: { content: { type: 'array', items: {} }, structuredContent: structured },
      required: ['content'],
      additionalProperties: false,
    })
    expect(isInSchemaSubset(schema)).toBe(true)
  })

  it('drops a root $schema (a dialect name constrains nothing), but no other keyword', () => {
    expect(hostStructuredSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...structured })).toEqual(structured)
    expect(hostStructuredSchema({ ...structured, properties: { n: { $schema: 'x', type: 'number' } } })).toBeUndefined()
  })

  it.each(corpus.cases.filter((c) => !c.supported && typeof c.schema === 'object'))('falls back to any JSON for "$note"', ({ schema }) => {
    const canonical = canonicalValueSchema(schema as Record<string, unknown>) as { properties: { structuredContent: unknown } }
    const expected = hostStructuredSchema(schema as Record<string, unknown>) ?? {}
    expect(canonical.properties.structuredContent).toEqual(expected)
    expect(isInSchemaSubset(canonical)).toBe(true)
  })

  it('is any JSON when the tool declares no outputSchema', () => {
    expect((canonicalValueSchema(undefined).properties as Record<string, unknown>).structuredContent).toEqual({})
  })
})
