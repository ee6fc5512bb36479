/**
 * The schema is the configuration's one source: every field says what it is (a console shows it),
 * the exported Config shows a console the transports' fields, and the README's table of fields
 * lists exactly the schema's fields with the schema's defaults.
 */

import { readFileSync } from 'node:fs'
import type Schema from 'schemastery'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { AuthConfig } from '../src/auth-config.ts'
import { SseSchema, StdioSchema, StreamableHttpSchema, type ReconnectConfig, type StdioConfig, type StreamableHttpConfig } from '../src/config-schema.ts'
import { Config } from '../src/index.ts'

const transports = { stdio: StdioSchema, 'streamable-http': StreamableHttpSchema, sse: SseSchema }

/** Every field of a schema as a dotted path, nested objects' fields included (as the table writes them). */
function fields(schema: Schema, prefix = ''): Array<[path: string, field: Schema]> {
  return Object.entries(schema.dict ?? {}).flatMap(([key, field]) => {
    const path = `${prefix}${key}`
    return field.type === 'object' ? [[path, field] as [string, Schema], ...fields(field, `${path}.`)] : [[path, field] as [string, Schema]]
  })
}

/** `field` → its default column, from the README's table of fields under "## Configuration". */
function readmeTable(): Map<string, string> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1))
  const rows = [...section.matchAll(/^\| `([^`]+)` \| ([^|]+) \|/gm)]
  return new Map(rows.map(([, field, fallback]) => [field!, fallback!.trim()]))
}

describe('the config schema', () => {
  it('describes every field of every transport', () => {
    const undescribed = Object.entries(transports).flatMap(([transport, schema]) =>
      fields(schema)
        .filter(([, field]) => typeof field.meta.description !== 'string' || field.meta.description.length === 0)
        .map(([path]) => `${transport}: ${path}`),
    )
    expect(undescribed).toEqual([])
  })

  it('shows a console the three transports, each described, behind the hidden catch-all that leaves parsing to parseConfig', () => {
    const union = Config.inner!
    expect(union.type).toBe('union')
    expect(union.list![0]!.meta.hidden).toBe(true)
    const shown = union.list!.filter((choice) => !choice.meta.hidden)
    expect(shown).toEqual([StdioSchema, StreamableHttpSchema, SseSchema])
    for (const choice of shown) expect(choice.meta.description).toBeTruthy()
    // What a console receives: the serialised schema keeps each field's description.
    expect(JSON.stringify(Config)).toContain(StdioSchema.dict!.killGraceMs!.meta.description)
  })

  it("has the README table's rows, one per field, with the schema's defaults", () => {
    const table = readmeTable()
    const all = new Map(Object.values(transports).flatMap((schema) => fields(schema)))
    // Nested objects are documented by their fields (`reconnect.enabled`), not as a row of their own.
    const leaves = [...all].filter(([, field]) => field.type !== 'object').map(([path]) => path)
    expect([...table.keys()].sort()).toEqual([...new Set(leaves)].sort())
    const wrong = [...all]
      .filter(([path, field]) => table.has(path) && field.meta.default !== undefined)
      .filter(([path, field]) => table.get(path)!.match(/^`([^`]*)`/)?.[1] !== JSON.stringify(field.meta.default))
      .map(([path, field]) => `${path}: README ${table.get(path)}, schema ${JSON.stringify(field.meta.default)}`)
    expect(wrong).toEqual([])
  })

  // Checked by the type-checker (npm run check): the types are the schema's, without the index
  // signature Schemastery's object types carry (which would let any misspelt key through).
  it('derives the configuration types from the schema', () => {
    expectTypeOf<StdioConfig['transport']>().toEqualTypeOf<'stdio'>()
    expectTypeOf<StdioConfig['cwd']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<StdioConfig['env']>().toEqualTypeOf<Record<string, string>>()
    expectTypeOf<ReconnectConfig>().toEqualTypeOf<{ enabled: boolean; initialDelayMs: number; maxDelayMs: number; maxAttempts: number }>()
    expectTypeOf<StreamableHttpConfig['auth']>().toEqualTypeOf<AuthConfig | undefined>()
    expectTypeOf<StdioConfig>().not.toHaveProperty('toolCallTimeoutMS')
  })
})
