/**
 * Pure: the Mcp-Param-{Name} headers a client sends with tools/call over Streamable HTTP
 * (2026-07-28, streamable-http: client behavior and value encoding): one per property of the
 * tool's inputSchema marked x-mcp-header, reached through properties alone, whose value the
 * arguments hold; a value that is absent or null gets no header.
 */
import { isObject } from '../check.ts'

/** Visible ASCII, inner spaces and tabs allowed: a value a header may carry as it is (RFC 9110 field values). */
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/
const SENTINEL = /^=\?base64\?.*\?=$/s

/** The header value of a parameter value (type conversion, then plain or the =?base64?…?= sentinel). */
export function encodeParam(value: string | number | boolean): string {
  const text = typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value)
  return PLAIN.test(text) && !SENTINEL.test(text) ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`
}

export interface ParamHeaders {
  /** `mcp-param-<name>` → encoded value, for each annotated parameter the arguments give a value. */
  headers: Record<string, string>
  /** Annotated parameters the arguments leave out, or set to null: their header is omitted. */
  omitted: { header: string; why: 'absent' | 'null' }[]
  /** Headers of parameters typed integer whose value is one: `mcp-param-<name>` → the value. */
  integers: Record<string, number>
}

export function paramHeaders(inputSchema: unknown, args: unknown): ParamHeaders {
  const found: ParamHeaders = { headers: {}, omitted: [], integers: {} }
  const walk = (schema: unknown, value: unknown) => {
    if (!isObject(schema) || !isObject(schema.properties)) return
    const values = isObject(value) ? value : {}
    for (const [key, property] of Object.entries(schema.properties)) {
      if (!isObject(property)) continue
      const header = property['x-mcp-header']
      const given = values[key]
      if (typeof header === 'string' && header !== '') {
        if (given === undefined || given === null) found.omitted.push({ header, why: given === null ? 'null' : 'absent' })
        else if (typeof given === 'string' || typeof given === 'number' || typeof given === 'boolean') found.headers[`mcp-param-${header.toLowerCase()}`] = encodeParam(given)
        if (property.type === 'integer' && Number.isInteger(given)) found.integers[`mcp-param-${header.toLowerCase()}`] = given as number
      }
      walk(property, given)
    }
  }
  walk(inputSchema, args)
  return found
}
