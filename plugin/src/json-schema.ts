import Ajv, { type ErrorObject } from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import { RE2JS } from 're2js'
import { isRecord } from './records.ts'

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

/**
 * Runs schema `pattern`s (and `patternProperties`, `propertyNames` patterns) with RE2's
 * linear-time matcher instead of V8's backtracking one: schemas come from servers and the
 * strings from servers (structuredContent) or the model (arguments), and a pattern such as
 * `^(a|a)*$` against 40 characters would hold the main thread for hours. The pattern is first
 * compiled natively, only to keep its syntax errors what they were (a schema with an invalid
 * ECMA-262 pattern still does not compile); it is never run natively. A valid pattern the
 * linear engine cannot express is reported to `uncheckedSink` and tests as matching everything:
 * for `pattern` and `additionalProperties` that leaves it unchecked, and `patternProperties`
 * entries with such a key are replaced by `true` (compileUncached), so it never over-constrains.
 * Formats are not validated at all (`validateFormats: false`), so `format: regex` runs nothing.
 */
const linearRegExp = Object.assign(
  (pattern: string, flags: string): { test(text: string): boolean } => {
    new RegExp(pattern, flags) // throws SyntaxError for a pattern that is not ECMA-262
    const matcher = flags === 'u' ? re2Of(pattern) : undefined
    if (!matcher) {
      uncheckedSink?.add(pattern)
      // Distinct keys: Ajv shares one compiled pattern per toString() within an instance.
      return { test: () => true, toString: () => `unchecked:/${pattern}/${flags}` } as { test(text: string): boolean }
    }
    const size = Math.max(1, matcher.programSize())
    const test = (text: string) => {
      const cost = text.length * size
      if (cost > matchBudget) throw new MatchBudgetExceeded(pattern, text.length)
      matchBudget -= cost
      return matcher.test(text)
    }
    return { test, toString: () => `/${pattern}/${flags}` } as { test(text: string): boolean }
  },
  // Ajv names the engine by `code` only in standalone code, which nothing here generates.
  { code: 'mcpBridgeLinearRegExp' },
)

/** Where linearRegExp reports the patterns it leaves unchecked, during one synchronous compile. */
let uncheckedSink: Set<string> | undefined

/**
 * Linear is not free: matching costs up to (program size × string length) steps, 5-12 ns each
 * (measured: a 2,000-instruction pattern against 1,000,000 characters took 11-24 s). One
 * validation may spend MATCH_BUDGET steps on patterns, one to two seconds at worst; past it the value
 * is refused as not checkable. A 10-instruction pattern still takes a 13-million-character string.
 */
export const MATCH_BUDGET = 2 ** 27
/** What the validation running now may still spend; outside one (meta-schema checks) unbounded. */
let matchBudget = Infinity

class MatchBudgetExceeded extends Error {
  constructor(pattern: string, length: number) {
    super(`a string of ${length} characters is too long to match against pattern ${JSON.stringify(bounded(pattern, 60))} in bounded time`)
  }
}

function re2Of(pattern: string): RE2JS | undefined {
  const source = toRe2Syntax(pattern)
  if (source === undefined) return undefined
  try {
    return RE2JS.compile(source)
  } catch {
    // Valid ECMA-262 that RE2 refuses: a repeat count over 1,000, an unknown property name, …
    return undefined
  }
}

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
    const { $schema, ...body } = schema
    const engine = typeof $schema === 'string' && /draft-0[4-7]/.test($schema) ? (this.draft07 ??= new Ajv(options)) : (this.draft2020 ??= new Ajv2020(options))
    const unchecked = new Set<string>()
    uncheckedSink = unchecked
    try {
      let check = engine.compile(body)
      if (unchecked.size) {
        // A `patternProperties` entry whose key matches everything would apply its subschema to
        // every property: left unchecked, the entry constrains nothing (and still keeps its keys
        // from counting as additional). Compiled again, from a copy: the server's schema is shared.
        const neutral = withUncheckedEntriesTrue(body, unchecked)
        if (neutral !== body) {
          engine.removeSchema()
          check = engine.compile(neutral as Record<string, unknown>)
        }
      }
      const validate: Validate = (value) => {
        matchBudget = MATCH_BUDGET
        try {
          return check(value) ? NO_VIOLATIONS : describeViolations(check.errors ?? [])
        } catch (error) {
          return [couldNotCheck(error)]
        } finally {
          matchBudget = Infinity
        }
      }
      return unchecked.size ? { ok: true, validate, unchecked: [...unchecked] } : { ok: true, validate }
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) }
    } finally {
      uncheckedSink = undefined
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
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined
    node.forEach((item, i) => {
      const rewritten = withUncheckedEntriesTrue(item, unchecked)
      if (rewritten !== item) (copy ??= [...node])[i] = rewritten
    })
    return copy ?? node
  }
  if (!isRecord(node)) return node
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(node)) {
    if (DATA_KEYWORDS.has(key)) continue
    const value = node[key]
    let rewritten = withUncheckedEntriesTrue(value, unchecked)
    if (key === 'patternProperties' && isRecord(rewritten)) {
      let entries: Record<string, unknown> = rewritten
      for (const pattern of Object.keys(entries)) {
        if (unchecked.has(pattern) && entries[pattern] !== true) entries = ownProperty(entries === value ? { ...entries } : entries, pattern, true)
      }
      rewritten = entries
    }
    if (rewritten !== value) copy = ownProperty(copy ?? { ...node }, key, rewritten)
  }
  return copy ?? node
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

/** JavaScript's `\s` (WhiteSpace and LineTerminator), as code point ranges. */
const JS_SPACE: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
]
const hex = (code: number) => `\\x{${code.toString(16)}}`
const rangeText = ([from, to]: readonly [number, number]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)
/** Class items (no brackets) for `\s` and `\S`: RE2's own `\s` is ASCII only. */
const SPACE_ITEMS = JS_SPACE.map(rangeText).join('')
const NON_SPACE_ITEMS = JS_SPACE.map(([from], i) => [i === 0 ? 0 : JS_SPACE[i - 1]![1] + 1, from - 1] as const)
  .concat([[JS_SPACE[JS_SPACE.length - 1]![1] + 1, 0x10ffff]])
  .filter(([from, to]) => from <= to)
  .map(rangeText)
  .join('')
/** JavaScript's `.` without the `s` flag; RE2's excludes only `\n`. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]'

/**
 * An ECMA-262 pattern in `u` mode, already known to be valid (it compiled natively), in RE2's
 * syntax with the same meaning; undefined when it uses what RE2 has no linear-time equivalent
 * for (lookaround, backreferences, modifiers). Differences handled: `\s`, `\S` and `.` are
 * JavaScript's; `\uXXXX` (surrogate pairs joined), `\u{…}`, `\xXX`, `\cX`, `\0` become `\x{…}`;
 * `[\b]` is a backspace; `[]` and `[^]`; a `[` inside a class is literal; named groups become
 * plain groups (only `test` is asked, so captures never matter); `\p{Script=…}` / `\p{gc=…}`
 * lose their prefix. Anything RE2 then refuses (an unknown property name) is also unchecked.
 */
export function toRe2Syntax(pattern: string): string | undefined {
  const chars = Array.from(pattern) // code points: a surrogate pair is one literal
  let out = ''
  let inClass = false
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === '\\') {
      const escape = readEscape(chars, i + 1, inClass)
      if (escape === undefined) return undefined
      out += escape.text
      i = escape.end - 1
    } else if (inClass) {
      if (c === ']') inClass = false
      out += c === '[' ? '\\[' : c
    } else if (c === '[') {
      if (chars[i + 1] === ']') {
        out += '[^\\x{0}-\\x{10ffff}]' // JavaScript's empty class: matches nothing
        i += 1
      } else if (chars[i + 1] === '^' && chars[i + 2] === ']') {
        out += '[\\x{0}-\\x{10ffff}]' // and its negation: anything
        i += 2
      } else {
        inClass = true
        out += '['
        // A leading `^` belongs to the class syntax; a `]` cannot follow it unescaped in `u` mode.
        if (chars[i + 1] === '^') {
          out += '^'
          i += 1
        }
      }
    } else if (c === '.') {
      out += JS_DOT
    } else if (c === '(' && chars[i + 1] === '?') {
      if (chars[i + 2] === ':') {
        out += '(?:'
        i += 2
      } else if (chars[i + 2] === '<' && chars[i + 3] !== '=' && chars[i + 3] !== '!') {
        // A named group: a plain group (the name is only for backreferences, which RE2 lacks).
        const close = chars.indexOf('>', i + 3)
        out += '(?:'
        i = close
      } else {
        return undefined // lookahead, lookbehind, modifiers
      }
    } else {
      out += c
    }
  }
  return out
}

function readEscape(chars: readonly string[], at: number, inClass: boolean): { text: string; end: number } | undefined {
  const c = chars[at]
  const at1 = at + 1
  switch (c) {
    case 'd': case 'D': case 'w': case 'W': case 't': case 'n': case 'r': case 'f': case 'v':
      return { text: `\\${c}`, end: at1 }
    case 'b':
      return { text: inClass ? '\\x{8}' : '\\b', end: at1 }
    case 'B':
      return { text: '\\B', end: at1 }
    case 's':
      return { text: inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`, end: at1 }
    case 'S':
      return { text: inClass ? NON_SPACE_ITEMS : `[${NON_SPACE_ITEMS}]`, end: at1 }
    case '0':
      return { text: '\\x{0}', end: at1 }
    case 'c':
      return { text: hex(chars[at1]!.charCodeAt(0) % 32), end: at1 + 1 }
    case 'x':
      return { text: hex(parseInt(chars.slice(at1, at1 + 2).join(''), 16)), end: at1 + 2 }
    case 'u': {
      if (chars[at1] === '{') {
        const close = chars.indexOf('}', at1)
        return { text: hex(parseInt(chars.slice(at1 + 1, close).join(''), 16)), end: close + 1 }
      }
      const unit = parseInt(chars.slice(at1, at1 + 4).join(''), 16)
      // `u` mode joins `\uD83D\uDE00` into one code point, as a literal pair would be.
      if (unit >= 0xd800 && unit <= 0xdbff && chars[at1 + 4] === '\\' && chars[at1 + 5] === 'u' && /^[0-9a-fA-F]{4}$/.test(chars.slice(at1 + 6, at1 + 10).join(''))) {
        const low = parseInt(chars.slice(at1 + 6, at1 + 10).join(''), 16)
        if (low >= 0xdc00 && low <= 0xdfff) return { text: hex(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)), end: at1 + 10 }
      }
      return { text: hex(unit), end: at1 + 4 }
    }
    case 'p':
    case 'P': {
      const close = chars.indexOf('}', at1)
      const body = chars.slice(at1 + 1, close).join('')
      const [name, value] = body.split('=') as [string, string | undefined]
      if (value !== undefined && !['General_Category', 'gc', 'Script', 'sc'].includes(name)) return undefined
      return { text: `\\${c}{${value ?? name}}`, end: close + 1 }
    }
    case 'k':
    case undefined:
      return undefined // a named backreference
    default:
      // Backreferences `\1`…; otherwise an identity escape of a syntax character, `/` or `-`,
      // which RE2 takes the same way (any punctuation escaped is itself).
      return /[1-9]/.test(c) ? undefined : { text: `\\${c}`, end: at1 }
  }
}

/**
 * Meta-schema checks only: `validateSchema` compiles nothing and stores nothing, so these two
 * instances stay the size they start at, however many schemas they see.
 */
let metaCheckers: { draft07: Ajv; draft2020: Ajv2020 } | undefined

/** Why `schema` is not valid JSON Schema of its declared dialect, or undefined when it is. */
export function schemaProblem(schema: Record<string, unknown>): string | undefined {
  const { $schema } = schema
  if ($schema === undefined && withinPlainKeywords(schema, 0)) return undefined
  metaCheckers ??= { draft07: new Ajv(options), draft2020: new Ajv2020(options) }
  // Copied without `$schema` only when there is one: most schemas have none, and a rest copy per
  // schema is a measurable share of discovering 10,000 tools.
  const body = $schema === undefined ? schema : withoutDialect(schema)
  const engine = typeof $schema === 'string' && /draft-0[4-7]/.test($schema) ? metaCheckers.draft07 : metaCheckers.draft2020
  try {
    if (engine.validateSchema(body)) return undefined
    return engine.errorsText(engine.errors, { dataVar: 'inputSchema' })
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
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
