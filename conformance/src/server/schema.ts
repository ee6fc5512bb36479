/**
 * Compiles server-provided JSON Schemas in the dialect they declare (or the revision's default)
 * and reports, never throws. A schema is called invalid only when it is: when it breaks its
 * dialect's meta-schema, or a reference inside the document points at nothing. A reference to
 * another document the kit cannot fetch leaves the schema unjudged, not invalid.
 *
 * One engine per dialect, reused: building an engine compiles its meta-schema (tens of
 * milliseconds), which for a list of thousands of tools was minutes of CPU. The engines never
 * register a server's schema (`addUsedSchema: false`, and each compiled schema is dropped from the
 * engine's cache afterwards), so one tool's `$id` cannot clash with, or resolve into, another's.
 */
import Ajv, { type ErrorObject, type Options } from 'ajv'
import Ajv2019 from 'ajv/dist/2019.js'
import Ajv2020 from 'ajv/dist/2020.js'
import Ajv04 from 'ajv-draft-04'
import { linearRegExp, withinMatchBudget } from '@mcp-bridge/process'
import { createRequire } from 'node:module'
import { atLeast } from './spec.ts'
import { cut } from './quote.ts'

const draft06 = createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json') as Record<string, unknown>

export type Dialect = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12'

export type Compiled =
  | { ok: true; dialect: Dialect; note?: string; validate: (value: unknown) => string[] }
  /** The schema breaks its dialect: it is invalid. */
  | { ok: false; dialect: Dialect; note?: string; reason: string }
  /** The kit cannot judge it (a dialect it does not know, a reference to another document). */
  | { ok: 'unjudged'; dialect?: Dialect; reason: string }

// Patterns run in linear time (the plugin's engine): a server's outputSchema and its results are
// both the server's, and `^(a|a)*$` against 40 characters would hold the kit for hours.
const OPTIONS: Options = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false, unicodeRegExp: true, code: { regExp: linearRegExp } }
/** Enough to act on: a result with 20,000 bad keys tells nobody more in 20,000 lines. */
const MAX_VIOLATIONS = 20

/** The meta-schema URI each dialect is identified by (Ajv looks meta-schemas up by exactly these). */
const META: Record<Dialect, string> = {
  'draft-04': 'http://json-schema.org/draft-04/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
}

const DECLARED: Array<[RegExp, Dialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, 'draft-04'],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, 'draft-06'],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
]

/**
 * The dialect a schema is judged in: its `$schema`, else 2020-12 from 2025-11-25 on (the spec's
 * default), else draft-07 (what earlier SDKs emitted; earlier revisions name no default).
 */
export function dialectOf(schema: Record<string, unknown>, revision: string): { dialect: Dialect } | { unknown: string } {
  const declared = schema.$schema
  if (declared === undefined) return { dialect: atLeast(revision, '2025-11-25') ? '2020-12' : 'draft-07' }
  if (typeof declared !== 'string') return { unknown: `$schema ${cut(JSON.stringify(declared) ?? String(declared), 80)} is not a URI` }
  const found = DECLARED.find(([pattern]) => pattern.test(declared.trim()))
  return found ? { dialect: found[1] } : { unknown: `$schema ${cut(JSON.stringify(declared), 80)} names a dialect the kit does not know` }
}

const engines = new Map<Dialect, Ajv>()

/** How many engines were built (each compiles its dialect's meta-schema): for tests, that it stays one per dialect. */
export const engineStats = { built: 0 }

function engineFor(dialect: Dialect): Ajv {
  let engine = engines.get(dialect)
  if (!engine) {
    engine = newEngine(dialect)
    engines.set(dialect, engine)
    engineStats.built++
  }
  return engine
}

function newEngine(dialect: Dialect): Ajv {
  switch (dialect) {
    case 'draft-04':
      return new Ajv04(OPTIONS) as unknown as Ajv
    case 'draft-06': {
      const engine = new Ajv(OPTIONS)
      engine.addMetaSchema(draft06)
      return engine
    }
    case 'draft-07':
      return new Ajv(OPTIONS)
    case '2019-09':
      return new Ajv2019(OPTIONS)
    case '2020-12':
      return new Ajv2020(OPTIONS)
  }
}

export function compileSchema(schema: Record<string, unknown>, revision: string): Compiled {
  const found = dialectOf(schema, revision)
  if ('unknown' in found) return { ok: 'unjudged', reason: found.unknown }
  const { dialect } = found
  const engine = engineFor(dialect)
  // The canonical URI, so "https://…/draft-07/schema" (no "#") still finds its meta-schema.
  const body = { ...schema, $schema: META[dialect] }
  const problems = engine.validateSchema(body) ? [] : (engine.errors ?? [])
  if (problems.length) return { ok: false, dialect, reason: `breaks the ${dialect} meta-schema: ${describe(problems)}` }
  let check: ReturnType<Ajv['compile']>
  try {
    check = engine.compile(body)
  } catch (error) {
    return notCompiled(error, dialect)
  } finally {
    forget(engine, body)
  }
  const validate = (value: unknown): string[] => {
    try {
      if (withinMatchBudget(() => check(value))) return []
    } catch (error) {
      // A schema that refers to itself without end overflows the stack; so does a value nested too deep.
      return [`(root) could not be checked: ${error instanceof RangeError ? 'the schema recurses without end' : error instanceof Error ? error.message : String(error)}`]
    }
    const errors = check.errors ?? []
    const lines = errors.slice(0, MAX_VIOLATIONS).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    return errors.length > MAX_VIOLATIONS ? [...lines, `and ${errors.length - MAX_VIOLATIONS} more`] : lines
  }
  return { ok: true, dialect, validate }
}

/**
 * The compiled function stays; the engine drops the schema from its cache, so memory does not
 * grow with the list. removeSchema also deletes what is registered under the schema's `$id`: a
 * schema claiming a meta-schema's id (registered, unlike any server schema) is left in the cache
 * rather than let it remove the meta-schema.
 */
function forget(engine: Ajv, body: Record<string, unknown>): void {
  const id = body.$id ?? body.id
  if (typeof id === 'string' && (Object.keys(engine.schemas).some((key) => sameId(key, id)) || Object.keys(engine.refs).some((key) => sameId(key, id)))) return
  engine.removeSchema(body)
}

const sameId = (a: string, b: string) => a.replace(/#$/, '') === b.replace(/#$/, '')

function notCompiled(error: unknown, dialect: Dialect): Compiled {
  const missing = error as { missingRef?: unknown; missingSchema?: unknown; message?: unknown }
  if (typeof missing.missingRef === 'string') {
    // A document of its own ("https://…/x.json") is not part of this schema; a pointer into this one that finds nothing is a broken schema.
    if (typeof missing.missingSchema === 'string' && missing.missingSchema !== '') {
      return { ok: 'unjudged', dialect, reason: `$ref ${cut(JSON.stringify(missing.missingRef), 120)} points into another document, which the kit does not fetch` }
    }
    return { ok: false, dialect, reason: `$ref ${cut(JSON.stringify(missing.missingRef), 120)} points at nothing in the document` }
  }
  return { ok: false, dialect, reason: error instanceof Error ? error.message : String(error) }
}

function describe(errors: ErrorObject[]): string {
  return errors
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ')
}
