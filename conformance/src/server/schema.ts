/**
 * Compiles server-provided JSON Schemas with the dialect they declare (or the revision's
 * default) and reports, never throws. A fresh validator per schema keeps one tool's `$id` from
 * clashing with another's.
 */
import Ajv from 'ajv'
import Ajv2019 from 'ajv/dist/2019.js'
import Ajv2020 from 'ajv/dist/2020.js'
import { atLeast } from './spec.ts'

export type Dialect = 'draft-07' | '2019-09' | '2020-12'

export type Compiled =
  | { ok: true; dialect: Dialect; note?: string; validate: (value: unknown) => string[] }
  | { ok: false; dialect: Dialect; note?: string; reason: string }

const OPTIONS = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false } as const

/**
 * The dialect a schema is judged in: its `$schema`, else 2020-12 from 2025-11-25 on (the spec's
 * default), else draft-07 (what earlier SDKs emitted; earlier revisions name no default).
 */
export function dialectOf(schema: Record<string, unknown>, revision: string): { dialect: Dialect; note?: string } {
  const declared = schema.$schema
  if (typeof declared !== 'string') return { dialect: atLeast(revision, '2025-11-25') ? '2020-12' : 'draft-07' }
  if (/draft-07/.test(declared)) return { dialect: 'draft-07' }
  if (/2019-09/.test(declared)) return { dialect: '2019-09' }
  if (/2020-12/.test(declared)) return { dialect: '2020-12' }
  if (/draft-0[46]/.test(declared)) return { dialect: 'draft-07', note: `${declared} is judged as draft-07 (closest dialect the kit supports)` }
  return { dialect: atLeast(revision, '2025-11-25') ? '2020-12' : 'draft-07', note: `unknown $schema ${JSON.stringify(declared).slice(0, 80)}` }
}

export function compileSchema(schema: Record<string, unknown>, revision: string): Compiled {
  const { dialect, note } = dialectOf(schema, revision)
  const engine = dialect === 'draft-07' ? new Ajv(OPTIONS) : dialect === '2019-09' ? new Ajv2019(OPTIONS) : new Ajv2020(OPTIONS)
  // `$schema` selected the engine; leaving it in would make Ajv look up meta-schemas by URI.
  const { $schema: _ignored, ...body } = schema
  try {
    const check = engine.compile(body)
    const validate = (value: unknown): string[] =>
      check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    return { ok: true, dialect, ...(note ? { note } : {}), validate }
  } catch (error) {
    return { ok: false, dialect, ...(note ? { note } : {}), reason: error instanceof Error ? error.message : String(error) }
  }
}
