import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compileSchema } from '../src/server/schema.ts'

/**
 * The kit validates a server's structuredContent against the server's own outputSchema: both are
 * the server's, so neither may hold the kit. Run in a child: a catastrophic pattern on a
 * backtracking engine blocks synchronously, past any timeout of the test runner's own.
 */
describe("the kit's schema checks against a hostile server", () => {
  it('runs a catastrophic pattern in linear time: ^(a|a)*$ against 40 a and a b is judged, not hung', () => {
    const schema = fileURLToPath(new URL('../dist/server/schema.js', import.meta.url))
    const script = `
      const { compileSchema } = await import(${JSON.stringify(schema)})
      const compiled = compileSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)*$' } } }, '2025-11-25')
      console.log(JSON.stringify([compiled.validate({ s: 'a'.repeat(40) + 'b' }), compiled.validate({ s: 'a'.repeat(40) })]))`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 })
    expect(run.signal, 'the child was killed at the 20 s bound: the pattern ran on a backtracking engine').toBeNull()
    expect(JSON.parse(run.stdout)).toEqual([['/s must match pattern "^(a|a)*$"'], []])
  })

  it('bounds a long list of violations: 20 lines and a count of the rest', () => {
    const many = compileSchema({ type: 'object', additionalProperties: { type: 'number' } }, '2025-11-25')
    if (many.ok !== true) throw new Error('expected a schema that compiles')
    const violations = many.validate(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, 'x'])))
    expect(violations).toHaveLength(21)
    expect(violations.at(-1)).toBe('and 480 more')
  })
})
