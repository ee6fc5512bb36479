import { createRequire } from 'node:module'
import type Ajv from 'ajv'
import type { ErrorObject } from 'ajv'
import type Ajv2020 from 'ajv/dist/2020.js'
import { collectingUnchecked, linearRegExp, withinMatchBudget } from './linear-regexp.ts'
import { isRecord } from './records.ts'

/**
 * Ajv, loaded at its first use: the first call of a tool, or a listed schema the plain-keyword
 * shortcut (withinPlainKeywords) cannot vouch for. Importing it is a large share of a host's
 * start, and a host that lists plain schemas and has not called a tool yet never needs it.
 * Both packages are CommonJS, so `require` loads them synchronously, where they are
 * first needed, and every function here stays synchronous.
 */
let engines: { Ajv: typeof Ajv; Ajv2020: typeof Ajv2020 } | undefined
function ajv(): { Ajv: typeof Ajv; Ajv2020: typeof Ajv2020 } {
  if (engines) return engines
  const require = createRequire(import.meta.url)
  return (engines = { Ajv: require('ajv') as typeof Ajv, Ajv2020: require('ajv/dist/2020.js') as typeof Ajv2020 })
}

/**
 * Violations as readable lines, or an empty list when the value conforms. At most
 * MAX_VIOLATIONS lines of at most MAX_VIOLATION_CHARS each, then one "and K more" line: the
 * lines quote instance paths, which come from untrusted data (a key can be a megabyte long).
 */
export type Validate = (value: unknown) => string[]

/**
 * `unchecked`: the schema's patterns the linear-time engine cannot run (lookaround,
 * backreferences, …), left unchecked rather than run with the backtracking engine. Absent when
 * every pattern runs.
 */
export type CompiledSchema = { ok: true; validate: Validate; unchecked?: readonly string[] } | { ok: false; reason: string }

/** What every conforming value gets: one shared, frozen empty list, not a new one per call. */
const NO_VIOLATIONS: string[] = Object.freeze([]) as unknown as string[]

/** Enough to act on; a list of 20,000 (a result with 20,000 bad keys) told nobody more. */
export const MAX_VIOLATIONS = 20
export const MAX_VIOLATION_CHARS = 200

// No codegen optimisation: it makes compiling 2.5 times slower and validating no faster (measured:
// 0.19 against 0.50 ms per schema; 27 against 29 ns per validation), and every generation compiles.
// `unicodeRegExp: true` (Ajv's default, spelled out): toRe2Syntax reads patterns in `u` mode.
const options = { strict: false, allErrors: true, validateFormats: false, unicodeRegExp: true, code: { optimize: false, regExp: linearRegExp } } as const

/**
 * Compiles server-provided JSON Schemas for one owner: a tool generation of the bridge, a
 * registration batch of the registry. Its validators, and the Ajv instances behind them, are
 * referenced only by that owner, so they are freed with it (a shared Ajv keeps every schema it
 * ever compiled). Each schema is compiled on its own and then removed from the instance, so two
 * schemas with the same `$id` never collide. Servers are untrusted: a schema that does not compile
 * is reported, never thrown, and a validation that throws (a schema that refers to itself without
 * end overflows the stack) is a violation, never an exception.
 */
export class SchemaCompiler {
  private draft07?: Ajv
  private draft2020?: Ajv2020
  private readonly cache = new WeakMap<object, CompiledSchema>()

  compile(schema: unknown): CompiledSchema {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return { ok: false, reason: 'schema is not a JSON object' }
    }
    const cached = this.cache.get(schema)
    if (cached) return cached
    const compiled = this.compileUncached(schema as Record<string, unknown>)
    this.cache.set(schema, compiled)
    return compiled
  }

  private compileUncached(schema: Record<string, unknown>): CompiledSchema {
    // The declared dialect picks the engine; `$schema` itself is dropped so no meta-schema is fetched.
    const { $schema, ...declared } = schema
    const dialect = dialectOf($schema)
    const body = dialect === 'draft-04' ? (fromDraft04(declared) as Record<string, unknown>) : declared
    const engine = dialect === '2020-12' ? (this.draft2020 ??= new (ajv().Ajv2020)(options)) : (this.draft07 ??= new (ajv().Ajv)(options))
    const unchecked = new Set<string>()
    try {
      const check = collectingUnchecked(unchecked, () => {
        const first = engine.compile(body)
        if (!unchecked.size) return first
        // A `patternProperties` entry whose key matches everything would apply its subschema to
        // every property: left unchecked, the entry constrains nothing (and still keeps its keys
        // from counting as additional). Compiled again, from a copy: the server's schema is shared.
        const neutral = withUncheckedEntriesTrue(body, unchecked)
        if (neutral === body) return first
        engine.removeSchema()
        return engine.compile(neutral as Record<string, unknown>)
      })
      const validate: Validate = (value) => {
        try {
          return withinMatchBudget(() => check(value)) ? NO_VIOLATIONS : describeViolations(check.errors ?? [])
        } catch (error) {
          return [couldNotCheck(error)]
        }
      }
      return unchecked.size ? { ok: true, validate, unchecked: [...unchecked] } : { ok: true, validate }
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) }
    } finally {
      // The compiled function keeps what it needs; the instance forgets the schema and its ids.
      engine.removeSchema()
    }
  }
}

function describeViolations(errors: readonly ErrorObject[]): string[] {
  const shown = errors.length > MAX_VIOLATIONS ? errors.slice(0, MAX_VIOLATIONS) : errors
  const lines = shown.map((e) => bounded(`${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`, MAX_VIOLATION_CHARS))
  if (errors.length > MAX_VIOLATIONS) lines.push(`and ${errors.length - MAX_VIOLATIONS} more`)
  return lines
}

/**
 * A validation that threw. The one cause met in practice is the stack: a schema such as
 * `{ "$ref": "#" }` refers to itself at the same place without end, or a value is nested deeper
 * than the stack allows.
 */
function couldNotCheck(error: unknown): string {
  if (error instanceof RangeError) return '(root) could not be checked: the schema recurses without end (or the value is nested too deep to check)'
  return bounded(`(root) could not be checked: ${error instanceof Error ? error.message : String(error)}`, MAX_VIOLATION_CHARS)
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** The data keywords: their values are instances, never schemas to rewrite. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples'])

/** `node` with every `patternProperties` entry keyed by an unchecked pattern made `true`; `node` itself when none is. */
function withUncheckedEntriesTrue(node: unknown, unchecked: ReadonlySet<string>): unknown {
  return mapSchemaObjects(node, (object) => {
    const entries = object.patternProperties
    if (!isRecord(entries)) return object
    let rewritten = entries
    for (const pattern of Object.keys(entries)) {
      if (unchecked.has(pattern) && entries[pattern] !== true) rewritten = ownProperty(rewritten === entries ? { ...entries } : rewritten, pattern, true)
    }
    return rewritten === entries ? object : ownProperty({ ...object }, 'patternProperties', rewritten)
  })
}

/**
 * `node` with `rewrite` applied to each object in it, innermost first; copied where something
 * changes, never written into (the server's schema is shared, and `rewrite` may be handed it).
 * The values of data keywords (enum, const, default, examples) are data, not schemas: left alone.
 */
function mapSchemaObjects(node: unknown, rewrite: (object: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined
    node.forEach((item, i) => {
      const rewritten = mapSchemaObjects(item, rewrite)
      if (rewritten !== item) (copy ??= [...node])[i] = rewritten
    })
    return copy ?? node
  }
  if (!isRecord(node)) return node
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(node)) {
    if (DATA_KEYWORDS.has(key)) continue
    const value = node[key]
    const rewritten = mapSchemaObjects(value, rewrite)
    if (rewritten !== value) copy = ownProperty(copy ?? { ...node }, key, rewritten)
  }
  return rewrite(copy ?? node)
}

/** Sets an own data property, even one named `__proto__` (which JSON.parse makes an own key). */
function ownProperty(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  return target
}

/**
 * The one warning for a schema's unchecked patterns, naming up to three (each bounded), or
 * undefined when there is none or it was given already. Once per schema object, whichever
 * compiler compiled it: the reference registry and the bridge's definition both compile a tool's
 * inputSchema, and one warning says it.
 */
export function uncheckedPatternsWarning(schema: object, compiled: CompiledSchema, subject: string): string | undefined {
  if (!compiled.ok || !compiled.unchecked?.length || warnedSchemas.has(schema)) return undefined
  warnedSchemas.add(schema)
  const { unchecked } = compiled
  const named = unchecked.slice(0, 3).map((pattern) => JSON.stringify(bounded(pattern, 100)))
  const more = unchecked.length > 3 ? ` and ${unchecked.length - 3} more` : ''
  const which = unchecked.length === 1 ? 'pattern' : 'patterns'
  return `${subject}: ${which} ${named.join(', ')}${more} left unchecked: the linear-time regex engine cannot run ${unchecked.length === 1 ? 'it' : 'them'} (lookaround, a backreference, a repeat over 1000, or a Unicode property it lacks)`
}

const warnedSchemas = new WeakSet<object>()

/**
 * Meta-schema checks only: `validateSchema` compiles nothing and stores nothing, so these two
 * instances stay the size they start at, however many schemas they see.
 */
let metaCheckers: { draft07: Ajv; draft2020: Ajv2020 } | undefined

/** Why `schema` is not valid JSON Schema of its declared dialect, or undefined when it is. */
export function schemaProblem(schema: Record<string, unknown>): string | undefined {
  const { $schema } = schema
  if ($schema === undefined && withinPlainKeywords(schema, 0)) return undefined
  metaCheckers ??= { draft07: new (ajv().Ajv)(options), draft2020: new (ajv().Ajv2020)(options) }
  // Copied without `$schema` only when there is one: most schemas have none, and a rest copy per
  // schema is a measurable share of discovering 10,000 tools.
  const dialect = dialectOf($schema)
  const declared = $schema === undefined ? schema : withoutDialect(schema)
  const body = dialect === 'draft-04' ? (fromDraft04(declared) as Record<string, unknown>) : declared
  const engine = dialect === '2020-12' ? metaCheckers.draft2020 : metaCheckers.draft07
  try {
    if (!engine.validateSchema(body)) return engine.errorsText(engine.errors, { dataVar: 'inputSchema' })
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  // A valid schema may still not compile: a `$ref` to another document (`https://…`) names a
  // schema that is never fetched. Compiled here, once, only when there is such a `$ref`, so that
  // the tool is left out at discovery instead of registered and refused on every call.
  if (!refersOutside(body)) return undefined
  const compiled = new SchemaCompiler().compile(schema)
  return compiled.ok ? undefined : `it refers to another document ($ref), and schemas are never fetched: ${compiled.reason}`
}

/** Whether a schema node anywhere in `schema` has a `$ref` that is not a fragment of the same document (`#…`). */
function refersOutside(schema: unknown): boolean {
  // A stack, not recursion: a schema within the size limit may still nest deeper than the call stack.
  const pending: unknown[] = [schema]
  while (pending.length) {
    const node = pending.pop()
    if (Array.isArray(node)) {
      pending.push(...node)
      continue
    }
    if (!isRecord(node)) continue
    for (const key of Object.keys(node)) {
      const value = node[key]
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return true
      if (!DATA_KEYWORDS.has(key) && typeof value === 'object' && value !== null) pending.push(value)
    }
  }
  return false
}

/**
 * The engine a declared `$schema` picks: draft-04 to draft-07 share Ajv's draft-07 engine (draft-04
 * after fromDraft04), anything else (none, 2019-09, 2020-12) is read as 2020-12.
 */
function dialectOf($schema: unknown): 'draft-04' | 'draft-07' | '2020-12' {
  if (typeof $schema !== 'string' || !/draft-0[4-7]/.test($schema)) return '2020-12'
  return /draft-04/.test($schema) ? 'draft-04' : 'draft-07'
}

/**
 * A draft-04 schema in the draft-06+ words that mean the same, so that the draft-07 engine reads
 * it as written (Ajv dropped draft-04, and its ajv-draft-04 class is one more dependency for two
 * keywords): a boolean `exclusiveMinimum`/`exclusiveMaximum` qualifies `minimum`/`maximum`
 * (`{ minimum: 0, exclusiveMinimum: true }` is `{ exclusiveMinimum: 0 }`), and `id` is `$id`.
 * Copied where it changes, never written into: the server's schema is shared.
 */
function fromDraft04(node: unknown): unknown {
  return mapSchemaObjects(node, (object) => {
    let copy: Record<string, unknown> | undefined
    for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
      const flag = object[exclusive]
      if (typeof flag !== 'boolean') continue
      copy ??= { ...object }
      delete copy[exclusive]
      if (flag && typeof object[bound] === 'number') {
        copy[exclusive] = object[bound]
        delete copy[bound]
      }
    }
    if (typeof object.id === 'string' && object.$id === undefined) {
      copy ??= { ...object }
      copy.$id = object.id
      delete copy.id
    }
    return copy ?? object
  })
}

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...body } = schema
  return body
}

/** The simple types of JSON Schema, the values `type` may name. */
export const JSON_SCHEMA_TYPES: readonly string[] = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']
const SIMPLE_TYPES = new Set(JSON_SCHEMA_TYPES)
/** Deeper schemas go to Ajv: this check is a shortcut, not a second validator. */
const MAX_PLAIN_DEPTH = 16

/**
 * True only for a schema (of the default dialect, 2020-12) made of nothing but the keywords most
 * tool schemas use, each with a value its meta-schema accepts: `type` (a simple type, or a
 * non-empty list of distinct ones), `properties` (schemas), `required` (distinct strings),
 * `description` and `title` (strings), `additionalProperties` and `items` (a schema), `enum` (a
 * list) and `default` (anything). Anything else, or anything deeper than MAX_PLAIN_DEPTH, is left
 * to Ajv's meta-schema check, so this never accepts a schema Ajv refuses (a property test holds
 * it to that) and only spares Ajv the common case: about 1 µs a schema, 10 ms of discovering
 * 10,000 tools.
 */
function withinPlainKeywords(node: unknown, depth: number): boolean {
  if (typeof node === 'boolean') return true
  if (!isRecord(node) || depth > MAX_PLAIN_DEPTH) return false
  for (const key of Object.keys(node)) {
    const value = node[key]
    switch (key) {
      case 'type': {
        // One simple type, or a non-empty list of distinct ones.
        const named = typeof value === 'string' ? SIMPLE_TYPES.has(value) : distinctStrings(value, SIMPLE_TYPES) && (value as string[]).length > 0
        if (!named) return false
        break
      }
      case 'properties':
        if (!isRecord(value)) return false
        for (const property of Object.values(value)) if (!withinPlainKeywords(property, depth + 1)) return false
        break
      case 'required':
        if (!distinctStrings(value)) return false
        break
      case 'description':
      case 'title':
        if (typeof value !== 'string') return false
        break
      case 'additionalProperties':
      case 'items':
        if (!withinPlainKeywords(value, depth + 1)) return false
        break
      case 'enum':
        if (!Array.isArray(value)) return false
        break
      case 'default':
        break
      default:
        return false
    }
  }
  return true
}

function distinctStrings(value: unknown, allowed?: Set<string>): boolean {
  if (!Array.isArray(value)) return false
  const seen = new Set<string>()
  for (const item of value) {
    if (typeof item !== 'string' || seen.has(item) || (allowed && !allowed.has(item))) return false
    seen.add(item)
  }
  return true
}
