import Ajv2020 from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { MAX_VIOLATION_CHARS, MAX_VIOLATIONS, SchemaCompiler, schemaProblem } from '../src/json-schema.ts'

/** Ajv's own meta-schema verdict, from an instance of the test's own. */
const reference = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })

const typeName = fc.constantFrom('string', 'object', 'array', 'integer', 'number', 'boolean', 'null', 'strnig', 'any', '')
/** Values that are right for some keywords and wrong for others, nested schemas included. */
const schema = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, fc.boolean(), tie('object')),
  object: fc.dictionary(
    fc.constantFrom('type', 'properties', 'required', 'description', 'title', 'additionalProperties', 'items', 'enum', 'default', 'minimum', 'anyOf', '$ref', 'format'),
    tie('value'),
    { maxKeys: 4 },
  ),
  value: fc.oneof(
    { depthSize: 'small' },
    typeName,
    fc.array(typeName, { maxLength: 3 }),
    fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 2 }),
    tie('node'),
    fc.array(tie('node'), { maxLength: 2 }),
    fc.integer(),
    fc.constant(null),
    fc.string({ maxLength: 4 }),
  ),
})).object.map((s) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>) // as from the wire

describe('schemaProblem', () => {
  it('accepts exactly the schemas Ajv’s meta-schema accepts, with or without its shortcut, but for a $ref to another document that cannot compile', () => {
    fc.assert(
      fc.property(schema, (s) => {
        const problem = schemaProblem(s)
        const valid = reference.validateSchema(s) === true
        if (problem === undefined || !valid) {
          expect(problem === undefined, JSON.stringify(s)).toBe(valid)
          return
        }
        // Valid, and still refused: only for a $ref to a document that is never fetched, which Ajv cannot compile either.
        expect(problem).toMatch(/^it refers to another document \(\$ref\), and schemas are never fetched: /)
        try {
          expect(() => reference.compile(s), JSON.stringify(s)).toThrow()
        } finally {
          reference.removeSchema()
        }
      }),
      { numRuns: 3_000 },
    )
  })

  it('refuses a schema whose $ref names another document, which is never fetched, and only that', () => {
    const remote = { type: 'object', properties: { a: { $ref: 'https://example.com/schemas/a.json' } } }
    expect(schemaProblem(remote)).toBe(
      "it refers to another document ($ref), and schemas are never fetched: can't resolve reference https://example.com/schemas/a.json from id #",
    )
    expect(schemaProblem({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { $ref: 'other.json#/x' } } })).toMatch(/can't resolve reference other\.json#\/x/)
    // A reference within the document, or to a document the schema embeds under its $id, compiles.
    expect(schemaProblem({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } })).toBeUndefined()
    expect(schemaProblem({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } }, $defs: { a: { $id: 'https://example.com/a.json', type: 'string' } } })).toBeUndefined()
    // A "$ref" that is data (an enum value, a default) refers to nothing.
    expect(schemaProblem({ type: 'object', default: { $ref: 'https://example.com/x' }, properties: { a: { enum: [{ $ref: 'x' }] } } })).toBeUndefined()
  })

  it('answers a plain tool schema without running the meta-schema, and anything else with it', () => {
    const validateSchema = vi.spyOn(Ajv2020.prototype, 'validateSchema')
    try {
      const plain = { type: 'object', properties: { query: { type: 'string', description: 'what' }, n: { type: ['integer', 'null'] }, tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } }, required: ['query'], additionalProperties: false }
      expect(schemaProblem(plain)).toBeUndefined()
      expect(validateSchema).not.toHaveBeenCalled()
      expect(schemaProblem({ type: 'object', properties: { q: { type: 'string', minLength: 1 } } })).toBeUndefined()
      expect(schemaProblem({ type: 'object', required: ['a', 'a'] })).toMatch(/unique|duplicate/)
      expect(validateSchema).toHaveBeenCalledTimes(2)
    } finally {
      validateSchema.mockRestore()
    }
  })

  it('leaves a schema nested deeper than the shortcut goes to the meta-schema', () => {
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { next: deep } }
    const validateSchema = vi.spyOn(Ajv2020.prototype, 'validateSchema')
    try {
      expect(schemaProblem(deep)).toBeUndefined()
      expect(validateSchema).toHaveBeenCalledTimes(1)
    } finally {
      validateSchema.mockRestore()
    }
  })
})

describe('draft-04 schemas', () => {
  const DRAFT_04 = 'http://json-schema.org/draft-04/schema#'
  const draft04 = {
    $schema: DRAFT_04,
    id: 'http://example.com/schemas/range',
    type: 'object',
    properties: {
      n: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
      // Property names are not keywords: a property called "id" or "exclusiveMinimum" stays one.
      id: { type: 'string' },
      exclusiveMinimum: { type: 'boolean' },
      list: { type: 'array', items: [{ type: 'integer', maximum: 3, exclusiveMaximum: true }] },
    },
    default: { n: 1, exclusiveMinimum: true },
  }

  it('are valid with a boolean exclusiveMinimum/exclusiveMaximum and an id, as draft-04 writes them', () => {
    expect(schemaProblem(draft04)).toBeUndefined()
    // The same keywords under draft-07 are still wrong there.
    expect(schemaProblem({ ...draft04, $schema: 'http://json-schema.org/draft-07/schema#' })).toMatch(/exclusiveMinimum must be number/)
  })

  it('validate with draft-04 meaning: the boolean makes its bound exclusive, or leaves it inclusive', () => {
    const compiled = new SchemaCompiler().compile(draft04)
    expect(compiled.ok).toBe(true)
    if (!compiled.ok) return
    expect(compiled.validate({ n: 0.5, id: 'a', exclusiveMinimum: true, list: [2] })).toEqual([])
    expect(compiled.validate({ n: 10 })).toEqual([])
    expect(compiled.validate({ n: 0 })).toEqual(['/n must be > 0'])
    expect(compiled.validate({ n: 10.5 })).toEqual(['/n must be <= 10'])
    expect(compiled.validate({ list: [3] })).toEqual(['/list/0 must be < 3'])
    expect(compiled.validate({ id: 5, exclusiveMinimum: 'yes' })).toEqual(['/id must be string', '/exclusiveMinimum must be boolean'])
  })

  it('are read, never written into: the server’s schema object is shared', () => {
    const before = JSON.stringify(draft04)
    new SchemaCompiler().compile(draft04)
    schemaProblem(draft04)
    expect(JSON.stringify(draft04)).toBe(before)
  })
})

describe('SchemaCompiler validation of hostile schemas and values', () => {
  const compile = (schema: Record<string, unknown>) => {
    const compiled = new SchemaCompiler().compile(schema)
    if (!compiled.ok) throw new Error(compiled.reason)
    return compiled.validate
  }

  it('a schema that refers to itself without end is a violation, not a thrown RangeError', () => {
    // Ajv compiles it; validating recurses until the stack overflows.
    const validate = compile({ type: 'object', $ref: '#' })
    expect(() => validate({})).not.toThrow()
    expect(validate({})).toEqual(['(root) could not be checked: the schema recurses without end (or the value is nested too deep to check)'])
    // The compiler stays usable afterwards.
    expect(compile({ type: 'object', required: ['a'] })({})).toEqual(["(root) must have required property 'a'"])
  })

  it('lists at most MAX_VIOLATIONS violations, then how many more', () => {
    const validate = compile({ type: 'object', additionalProperties: { type: 'string' } })
    const value = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))
    const violations = validate(value)
    expect(violations).toHaveLength(MAX_VIOLATIONS + 1)
    expect(violations[0]).toBe('/k0 must be string')
    expect(violations.at(-1)).toBe(`and ${10_000 - MAX_VIOLATIONS} more`)
  })

  it('cuts each violation at MAX_VIOLATION_CHARS: an instance path is a key of untrusted data', () => {
    const validate = compile({ type: 'object', additionalProperties: { type: 'string' } })
    const [line] = validate({ ['k'.repeat(1_000_000)]: 1 })
    expect(line).toHaveLength(MAX_VIOLATION_CHARS)
    expect(line).toMatch(/^\/k+…$/)
  })
})
