import Ajv from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'

/** Violations as readable lines, or an empty list when the value conforms. */
export type Validate = (value: unknown) => string[]

export type CompiledSchema = { ok: true; validate: Validate } | { ok: false; reason: string }

const options = { strict: false, allErrors: true, validateFormats: false } as const
const draft07 = new Ajv(options)
const draft2020 = new Ajv2020(options)
const cache = new WeakMap<object, CompiledSchema>()

/**
 * Compiles a server-provided JSON Schema with a real validator. Servers are untrusted, so a schema
 * that does not compile is reported instead of thrown; callers decide to run unconstrained.
 */
export function compileJsonSchema(schema: unknown): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, reason: 'schema is not a JSON object' }
  }
  const cached = cache.get(schema)
  if (cached) return cached
  const compiled = compileUncached(schema as Record<string, unknown>)
  cache.set(schema, compiled)
  return compiled
}

function compileUncached(schema: Record<string, unknown>): CompiledSchema {
  // The declared dialect picks the engine; `$schema` itself is dropped so no meta-schema is fetched.
  const { $schema, ...body } = schema
  const engine = typeof $schema === 'string' && /draft-0[4-7]/.test($schema) ? draft07 : draft2020
  try {
    const check = engine.compile(body)
    return {
      ok: true,
      validate: (value) =>
        check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`),
    }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}
