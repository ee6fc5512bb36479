import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { publicToolName } from '../src/index.ts'

const serverName = fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/)
const rawName = fc.string({ minLength: 1, maxLength: 160, unit: 'binary' })

describe('publicToolName', () => {
  it('keeps clean short names unchanged', () => {
    expect(publicToolName('github', 'create_issue')).toBe('mcp__github__create_issue')
    expect(publicToolName('weather', 'get-forecast')).toBe('mcp__weather__get-forecast')
  })

  it('replaces invalid characters and appends the identity hash when anything changed', () => {
    const hash = createHash('sha256').update('srv\0admin.reset').digest('hex').slice(0, 12)
    expect(publicToolName('srv', 'admin.reset')).toBe(`mcp__srv__admin_reset_${hash}`)
    // The clean neighbour keeps its plain name, so the two never collide.
    expect(publicToolName('srv', 'admin_reset')).toBe('mcp__srv__admin_reset')
  })

  it('truncates over-long names to 51 characters plus underscore plus 12 hex', () => {
    const name = publicToolName('s', 'x'.repeat(100))
    expect(name).toHaveLength(64)
    expect(name.slice(0, 51)).toBe(`mcp__s__${'x'.repeat(43)}`)
    expect(name).toMatch(/^.{51}_[0-9a-f]{12}$/)
  })

  it('hashes a name of exactly 64 clean characters only when it is longer', () => {
    const exact = 'y'.repeat(64 - 'mcp__s__'.length)
    expect(publicToolName('s', exact)).toBe(`mcp__s__${exact}`)
    expect(publicToolName('s', `${exact}y`)).toMatch(/_[0-9a-f]{12}$/)
  })

  it('is always a valid provider function name of at most 64 characters', () => {
    fc.assert(
      fc.property(serverName, rawName, (s, r) => {
        expect(publicToolName(s, r)).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
      }),
      { numRuns: 2000 },
    )
  })

  it('is deterministic', () => {
    fc.assert(fc.property(serverName, rawName, (s, r) => publicToolName(s, r) === publicToolName(s, r)))
  })

  it('belongs to one server alone: every server name the config accepts is the text between mcp__ and the next __', () => {
    const accepted = (name: string) => {
      try {
        return parseConfig({ transport: 'stdio', serverName: name, command: 'node' }).serverName === name
      } catch {
        return false
      }
    }
    const underscored = fc.string({ minLength: 1, maxLength: 32, unit: fc.constantFrom('a', 'b', '_', '-') })
    fc.assert(
      fc.property(fc.oneof(serverName, underscored).filter(accepted), rawName, (s, r) => {
        const rest = publicToolName(s, r).slice('mcp__'.length)
        expect(rest.slice(0, rest.indexOf('__'))).toBe(s)
      }),
      { numRuns: 2000 },
    )
    // The audit's pair, which shared mcp__a__b__c: the config now refuses the second name.
    expect(accepted('a')).toBe(true)
    expect(accepted('a__b')).toBe(false)
  })

  it('is injective over distinct (serverName, rawName) identities', () => {
    // Adversarial inputs: names that differ only in characters the sanitiser folds together.
    const foldable = fc.string({ minLength: 1, maxLength: 80, unit: fc.constantFrom('a', '_', '.', '-', ' ', 'é', 'b') })
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'a_b', 'b'), foldable), { minLength: 2, maxLength: 40, selector: ([s, r]) => `${s}\0${r}` }), (ids) => {
        const names = new Set(ids.map(([s, r]) => publicToolName(s, r)))
        expect(names.size).toBe(ids.length)
      }),
      { numRuns: 500 },
    )
  })
})
