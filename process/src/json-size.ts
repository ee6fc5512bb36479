/**
 * Pure: how long `JSON.stringify(value)` would be, in characters or in UTF-8 bytes, without
 * building the text. Discovery bounds every listed input schema by `limits.maxSchemaChars`;
 * stringifying 10,000 schemas only to read their lengths was the largest share of planning them
 * (measured on 10,000 small schemas freshly parsed: 0.6-1.1 µs a schema stringified, 0.15-0.35 µs
 * counted). A call's result is bounded by `limits.maxResultBytes` the same way: stringifying a
 * 100 KB result to measure it cost more than the rest of the call. Counting stops as
 * soon as the limit is passed, so an oversized value costs no more than the limit, and it walks
 * with a stack of its own, so nesting depth cannot overflow the call stack.
 *
 * Exact for what JSON.parse produces (what a server's answer gives), and for `undefined`,
 * functions and symbols as JSON.stringify treats them (left out of objects, `null` in arrays);
 * `toJSON` methods are not called.
 */
export function jsonTextLength(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  return measure(value, limit, quotedLength)
}

/** Like jsonTextLength, in the UTF-8 bytes of the text (what `Buffer.byteLength(JSON.stringify(value))` says). */
export function jsonByteLength(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  return measure(value, limit, quotedBytes)
}

/**
 * Whether `JSON.stringify(value)` fits in `limit` UTF-8 bytes. Most answers are far below the
 * limit, so a bound that reads no string's characters decides first: JSON writes one UTF-16 code
 * unit as at most 6 bytes (`\u001f`, a lone surrogate `\ud800`; 3 for any other character, 4 for
 * a pair). Only a value that bound cannot clear is counted exactly, and that stops at the limit.
 */
export function jsonFitsInBytes(value: unknown, limit: number): boolean {
  if (!Number.isFinite(limit)) return true
  if (measure(value, limit, boundedQuoted) <= limit) return true
  return measure(value, limit, quotedBytes) <= limit
}

/** The walk both measures share; `quoted` sizes one string as JSON writes it, quotes included. */
function measure(value: unknown, limit: number, quoted: (text: string) => number): number {
  let total = 0
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (typeof item === 'string') total += quoted(item)
    else if (typeof item === 'number') total += Number.isFinite(item) ? String(item).length : 4
    else if (typeof item === 'boolean') total += item ? 4 : 5
    else if (item === null || typeof item !== 'object') total += 4 // null, and undefined or a function in an array
    else if (Array.isArray(item)) {
      total += item.length > 0 ? item.length + 1 : 2
      for (let i = item.length - 1; i >= 0; i--) pending.push(item[i])
    } else {
      let members = 0
      for (const key of Object.keys(item)) {
        const member = (item as Record<string, unknown>)[key]
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue
        total += quoted(key) + 1
        if (total > limit) return total
        members++
        pending.push(member)
      }
      total += members > 0 ? members + 1 : 2
    }
    if (total > limit) return total
  }
  return total
}

/** Characters that JSON.stringify writes as more than themselves: quote, backslash, controls, lone surrogates. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/

function quotedLength(text: string): number {
  if (!ESCAPED.test(text)) return text.length + 2
  let length = 2
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) length += 2
    else if (code < 0x20) length += 6
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      length += 2
      i++
    } else if (code >= 0xd800 && code <= 0xdfff) length += 6
    else length += 1
  }
  return length
}

/** The most bytes JSON can write for `text`: 6 per code unit (see jsonFitsInBytes), and its quotes. */
function boundedQuoted(text: string): number {
  return text.length * 6 + 2
}

/** UTF-8 bytes of `text` as JSON writes it, quotes and escapes included. */
function quotedBytes(text: string): number {
  let bytes = 2
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0x20 && code < 0x80) bytes += code === 0x22 || code === 0x5c ? 2 : 1
    else if (code < 0x20) bytes += code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09 ? 2 : 6
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else if (code >= 0xd800 && code <= 0xdfff) bytes += 6
    else bytes += 3
  }
  return bytes
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
