/**
 * Schema patterns run with a linear-time engine (RE2's, through Ajv's `code.regExp`), never with
 * V8's backtracking one: servers choose the patterns, and servers (structuredContent) or the model
 * (arguments) choose the strings.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SchemaCompiler, uncheckedPatternsWarning, type CompiledSchema } from '../src/json-schema.ts'
import { MATCH_BUDGET, toRe2Syntax } from '../src/linear-regexp.ts'

function compiled(schema: Record<string, unknown>): Extract<CompiledSchema, { ok: true }> {
  const result = new SchemaCompiler().compile(schema)
  if (!result.ok) throw new Error(`did not compile: ${result.reason}`)
  return result
}

const stringWith = (pattern: string) => compiled({ type: 'string', pattern })

describe('schema patterns', () => {
  it('checks a catastrophic pattern against a long string without backtracking (a child process, so a hang fails instead of blocking the runner)', () => {
    // V8 needs hours for ^(a|a)*$ against "a"*40+"b" (2^40 paths; 28 characters took 16.6 s).
    // In-process, a synchronous hang would also stop vitest's own timeout, so a child runs it.
    const source = fileURLToPath(new URL('../src/json-schema.ts', import.meta.url))
    const script = `
      const { SchemaCompiler } = await import(${JSON.stringify(source)})
      const schema = new SchemaCompiler().compile({ type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)*$' } }, patternProperties: { '^(a|a)*$': { type: 'string' } }, propertyNames: { pattern: '^(b|b)*$|^s$|^a+$' } })
      const long = 'a'.repeat(40) + 'b'
      console.log(JSON.stringify([schema.validate({ s: long }), schema.validate({ s: 'a'.repeat(40) }), schema.validate({ [long]: 1 })]))
    `
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 25_000 })
    expect(run.error, 'the check did not finish: the pattern ran with a backtracking engine').toBeUndefined()
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([
      ['/s must match pattern "^(a|a)*$"'],
      [],
      // The key is checked by propertyNames (refused) and not matched by patternProperties.
      expect.arrayContaining(['(root) property name must be valid']),
    ])
  }, 30_000)

  it('never runs a pattern natively: no RegExp exec while validating', () => {
    const schema = stringWith('^[a-z]+\\d?$')
    const native = RegExp.prototype.exec
    let calls = 0
    RegExp.prototype.exec = function (this: RegExp, text: string) {
      calls++
      return native.call(this, text)
    }
    try {
      expect(schema.validate('abc1')).toEqual([])
      expect(schema.validate('ABC')).toEqual(['(root) must match pattern "^[a-z]+\\d?$"'])
    } finally {
      RegExp.prototype.exec = native
    }
    expect(calls).toBe(0)
  })

  it('still accepts what a pattern matches and refuses what it does not, in every keyword that takes one', () => {
    const schema = compiled({
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' } },
      patternProperties: { '^x-': { type: 'number' } },
      propertyNames: { pattern: '^(id|x-[a-z]+)$' },
      additionalProperties: false,
    })
    expect(schema.unchecked).toBeUndefined()
    expect(schema.validate({ id: 'ABC-1234', 'x-size': 3 })).toEqual([])
    expect(schema.validate({ id: 'abc-1234' })).toEqual(['/id must match pattern "^[A-Z]{3}-\\d{4}$"'])
    expect(schema.validate({ 'x-size': 'big' })).toEqual(['/x-size must be number'])
    expect(schema.validate({ other: 1 })).toEqual(expect.arrayContaining(['(root) must NOT have additional properties', '(root) property name must be valid']))
  })

  it('keeps Unicode patterns working (Ajv compiles them with the u flag)', () => {
    const letters = stringWith('^\\p{L}+$')
    expect(letters.validate('héllo')).toEqual([])
    expect(letters.validate('Ωμέγα')).toEqual([])
    expect(letters.validate('a1')).toHaveLength(1)
    // One code point, as in u mode: `.` takes a whole surrogate pair, and so does an escaped pair.
    expect(stringWith('^.$').validate('😀')).toEqual([])
    expect(stringWith('^\\uD83D\\uDE00$').validate('😀')).toEqual([])
    expect(stringWith('^\\u{1F600}$').validate('😀')).toEqual([])
    expect(stringWith('^\\p{Script=Greek}+$').validate('αβγ')).toEqual([])
    expect(stringWith('^\\p{Script=Greek}+$').validate('abc')).toHaveLength(1)
  })

  it('keeps JavaScript’s meaning where RE2’s differs: \\s, \\S and . (RE2’s \\s is ASCII, its . takes \\r)', () => {
    expect(stringWith('^\\s+$').validate('\u00a0\u2028\ufeff')).toEqual([])
    expect(stringWith('^\\S$').validate('\u0085')).toEqual([])
    expect(stringWith('^.$').validate('\r')).toHaveLength(1)
    expect(stringWith('^[^\\s]+$').validate('a\u3000b')).toHaveLength(1)
  })

  it('a pattern that is not ECMA-262 still does not compile, as before', () => {
    expect(new SchemaCompiler().compile({ type: 'string', pattern: '((' })).toMatchObject({ ok: false, reason: expect.stringMatching(/Invalid regular expression/) })
  })

  it('leaves a pattern the linear engine cannot run unchecked, reports it, and never runs it natively', () => {
    // A lookahead: natively "abc" would be refused (no digit). Unchecked, it passes.
    const schema = compiled({ type: 'object', properties: { pin: { type: 'string', pattern: '^(?=.*\\d)\\w+$', maxLength: 4 }, name: { type: 'string', pattern: '^[a-z]+$' } } })
    expect(schema.unchecked).toEqual(['^(?=.*\\d)\\w+$'])
    expect(schema.validate({ pin: 'abc', name: 'bob' })).toEqual([])
    // The rest of the schema still holds, patterns RE2 runs included.
    expect(schema.validate({ pin: 'abcdef', name: 'Bob' })).toEqual(['/pin must NOT have more than 4 characters', '/name must match pattern "^[a-z]+$"'])
    for (const pattern of ['(a)\\1', '\\k<n>(?<n>a)', '(?<=a)b', '(?!x)', 'a{1001}']) expect(stringWith(pattern).unchecked).toEqual([pattern])
  })

  it('a patternProperties entry it cannot run constrains nothing: neither the properties it might match nor additionalProperties', () => {
    const schema = compiled({ type: 'object', patternProperties: { '^(?!id$)': { type: 'number' } }, properties: { id: { type: 'string' } }, additionalProperties: false })
    expect(schema.unchecked).toEqual(['^(?!id$)'])
    expect(schema.validate({ id: 'x', size: 'big', other: true })).toEqual([])
    // The server's schema object is left as it was.
    const shared = { '^(?!id$)': { type: 'number' } }
    compiled({ type: 'object', patternProperties: shared })
    expect(shared).toEqual({ '^(?!id$)': { type: 'number' } })
  })

  it('warns once per schema object, naming the patterns, bounded', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '(?=a)' + 'x'.repeat(500) } } }
    const first = new SchemaCompiler().compile(schema)
    const warning = uncheckedPatternsWarning(schema, first, 'tool "t": its inputSchema')
    expect(warning).toMatch(/^tool "t": its inputSchema: pattern "\(\?=a\)x+…" left unchecked: the linear-time regex engine cannot run it/)
    expect(warning!.length).toBeLessThan(400)
    // Another compiler (the registry's, say) compiling the same object: no second warning.
    expect(uncheckedPatternsWarning(schema, new SchemaCompiler().compile(schema), 'tool "t": its parameters schema')).toBeUndefined()
    expect(uncheckedPatternsWarning({ type: 'string' }, new SchemaCompiler().compile({ type: 'string' }), 'x')).toBeUndefined()
  })

  it('refuses, as not checkable, a string whose match would cost more than the budget', () => {
    const big = stringWith('^(?:a|b)*a(?:a|b){200}$') // about 400 instructions
    const refused = big.validate('ab'.repeat(MATCH_BUDGET / 400))
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatch(/^\(root\) could not be checked: a string of \d+ characters is too long to match against pattern "\^\(\?:a\|b\)\*a/)
    // A small pattern takes a long string, and the budget is per validation, not spent for good.
    expect(stringWith('^[a-z]+$').validate('a'.repeat(1_000_000))).toEqual([])
    expect(big.validate('a'.repeat(401))).toEqual([])
  })

  it('does not run patterns while compiling (strict mode’s patternProperties check would, natively)', () => {
    const source = fileURLToPath(new URL('../src/json-schema.ts', import.meta.url))
    const key = 'a'.repeat(40) + 'b'
    const script = `
      const { SchemaCompiler } = await import(${JSON.stringify(source)})
      const schema = new SchemaCompiler().compile({ type: 'object', properties: { ${JSON.stringify(key)}: { type: 'string' } }, patternProperties: { '^(a|a)*$': { type: 'string' } } })
      console.log(JSON.stringify(schema.ok))
    `
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 25_000 })
    expect(run.error, 'compiling did not finish').toBeUndefined()
    expect(run.stdout.trim(), run.stderr).toBe('true')
  }, 30_000)
})

/**
 * Pattern pieces with a meaning in both engines, and strings over the same characters: every
 * generated pattern that is valid ECMA-262 must give the verdict V8 gives (the translation to
 * RE2 syntax keeps the meaning), and an invalid one must not compile.
 */
const atom = fc.constantFrom(
  'a', 'b', 'é', '😀', ' ', '-', '.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '\\B', '\\n', '\\t', '\\u00e9', '\\u{1F600}', '\\uD83D\\uDE00',
  '\\x41', '\\p{L}', '\\P{L}', '\\p{Lu}', '\\.', '\\/', '[ab]', '[^a\\s]', '[a-c]', '[\\S]', '[\\b]', '[\\s\\d]', '[é-ü]', '[\\-a]', '[]', '[^]', '\\0', '\\cJ',
)
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{1,2}', '*?', '{2}')
const piece = fc.tuple(atom, quantifier).map(([a, q]) => a + q)
const sequence = fc.array(piece, { minLength: 0, maxLength: 4 }).map((parts) => parts.join(''))
const group = fc.tuple(fc.constantFrom('(', '(?:', '(?<g>'), sequence, fc.constantFrom(')', ')*', ')+', ')?')).map(([open, body, close]) => open + body + close)
const patternArb = fc
  .tuple(fc.constantFrom('', '^'), fc.array(fc.oneof(piece, group), { minLength: 1, maxLength: 3 }), fc.constantFrom('', '|ab', '|\\s'), fc.constantFrom('', '$'))
  .map(([start, parts, alt, end]) => start + parts.join('') + alt + end)
const text = fc.array(fc.constantFrom('a', 'b', 'A', 'é', 'ü', '😀', ' ', '\n', '\r', '\u00a0', '\u2028', '\u0085', '\ufeff', '1', '_', '.', '-', '/', '\b', '\0'), { maxLength: 8 }).map((c) => c.join(''))

describe('the translation to RE2 syntax', () => {
  it('gives V8’s verdict for every generated pattern and string', () => {
    // One compiler for all: a new Ajv instance per pattern would make this test slow, not stricter.
    const compiler = new SchemaCompiler()
    fc.assert(
      fc.property(patternArb, fc.array(text, { minLength: 1, maxLength: 6 }), (pattern, strings) => {
        let native: RegExp
        try {
          native = new RegExp(pattern, 'u')
        } catch {
          expect(compiler.compile({ type: 'string', pattern }).ok, pattern).toBe(false)
          return
        }
        expect(toRe2Syntax(pattern), pattern).toBeDefined()
        const schema = compiler.compile({ type: 'string', pattern })
        expect(schema.ok && schema.unchecked, pattern).toBeUndefined()
        if (!schema.ok) return
        for (const s of strings) expect(schema.validate(s).length === 0, `${pattern} on ${JSON.stringify(s)}`).toBe(native.test(s))
      }),
      { numRuns: 1_000 },
    )
  })
})
