import { createRequire } from 'node:module'
import type { RE2JS } from 're2js'

/**
 * Pure: JSON Schema `pattern`s run in linear time, for every Ajv that validates what an untrusted
 * party sent against what another untrusted party wrote: the bridge's argument and result checks
 * (json-schema.ts) and the conformance kit's checks of a server's results. An Ajv takes it as
 * `code: { regExp: linearRegExp }`.
 */

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
export const linearRegExp = Object.assign(
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
    const shown = pattern.length <= 60 ? pattern : `${pattern.slice(0, 59)}…`
    super(`a string of ${length} characters is too long to match against pattern ${JSON.stringify(shown)} in bounded time`)
  }
}

/**
 * re2js, loaded at the first compile, as Ajv is (json-schema.ts; Ajv's own meta-schema has
 * patterns): a host that registers plain tools starts without it, and importing it was 7 of this
 * package's 27 ms. It ships CommonJS too, so `require` loads it inside Ajv's synchronous compile.
 */
let engine: typeof RE2JS | undefined
const re2 = () => (engine ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS)

function re2Of(pattern: string): RE2JS | undefined {
  const source = toRe2Syntax(pattern)
  if (source === undefined) return undefined
  try {
    return re2().compile(source)
  } catch {
    // Valid ECMA-262 that RE2 refuses: a repeat count over 1,000, an unknown property name, …
    return undefined
  }
}

/** Runs a (synchronous) compile with the patterns it leaves unchecked collected into `sink`. */
export function collectingUnchecked<T>(sink: Set<string>, compile: () => T): T {
  uncheckedSink = sink
  try {
    return compile()
  } finally {
    uncheckedSink = undefined
  }
}

/** Runs one (synchronous) validation with at most MATCH_BUDGET steps of pattern matching. */
export function withinMatchBudget<T>(validate: () => T): T {
  matchBudget = MATCH_BUDGET
  try {
    return validate()
  } finally {
    matchBudget = Infinity
  }
}

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
