import type { ElicitationField, ElicitationValue } from './contract.ts'

/**
 * A form elicitation's `requestedSchema`, checked against the restricted subset MCP 2025-11-25
 * (client/elicitation, "Supported Schema Types") allows: "a flat object with primitive properties
 * only", each a string (optionally with a format), a number or integer, a boolean, or an enum
 * (single select: `enum` or `oneOf` of const/title, with the legacy `enumNames`; multi select: an
 * array whose `items` hold `enum` or `anyOf`). Anything else (nested objects, `$ref`, arrays of
 * free values) the bridge cannot present, so the request is refused with the reason. Pure.
 */

/** Bounds on what one form may ask: a person reads it, and a server's flood of fields is not a form. */
export const FORM_LIMITS = { maxFields: 64, maxOptions: 256, maxOptionChars: 256, maxTitleChars: 200, maxDescriptionChars: 1_000 }

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const

/** Bounds and redacts a server's words before a person sees them. */
export type Quote = (text: string, maxChars: number) => string

export type FormCheck = { ok: true; fields: ElicitationField[] } | { ok: false; problem: string }

export function checkRequestedSchema(schema: unknown, quote: Quote): FormCheck {
  if (!isRecord(schema) || schema.type !== 'object') return refuse('must be a JSON Schema of type "object"')
  const properties = schema.properties ?? {}
  if (!isRecord(properties)) return refuse('properties must be an object')
  const names = Object.keys(properties)
  if (names.length > FORM_LIMITS.maxFields) return refuse(`has ${names.length} properties, more than the ${FORM_LIMITS.maxFields} a form may ask`)
  const required = schema.required ?? []
  if (!Array.isArray(required) || required.some((name) => typeof name !== 'string' || !names.includes(name))) {
    return refuse('required must list names of its properties')
  }
  const fields: ElicitationField[] = []
  for (const name of names) {
    const field = checkField(name, properties[name], required.includes(name), quote)
    if (typeof field === 'string') return refuse(`property ${JSON.stringify(name.slice(0, 64))} ${field}`)
    fields.push(field)
  }
  return { ok: true, fields }
}

function refuse(problem: string): FormCheck {
  return { ok: false, problem: `requestedSchema ${problem}` }
}

/** One property as a field, or why it is outside the subset. */
function checkField(name: string, raw: unknown, required: boolean, quote: Quote): ElicitationField | string {
  if (!isRecord(raw)) return 'must be a schema object'
  const base: ElicitationField = { name, required, kind: 'string' }
  if (typeof raw.title === 'string') base.title = quote(raw.title, FORM_LIMITS.maxTitleChars)
  if (typeof raw.description === 'string') base.description = quote(raw.description, FORM_LIMITS.maxDescriptionChars)
  const field = typedField(base, raw, quote)
  if (typeof field === 'string') return field
  if (raw.default !== undefined) {
    const problem = valueProblem(field, raw.default)
    if (problem) return `has a default that ${problem}`
    field.default = raw.default as ElicitationValue
  }
  return field
}

function typedField(field: ElicitationField, raw: Record<string, unknown>, quote: Quote): ElicitationField | string {
  switch (raw.type) {
    case 'string': {
      const options = raw.enum !== undefined ? plainOptions(raw.enum, raw.enumNames, quote) : raw.oneOf !== undefined ? titledOptions(raw.oneOf, quote) : undefined
      if (typeof options === 'string') return options
      if (options) return { ...field, kind: 'choice', options }
      if (raw.format !== undefined && !FORMATS.includes(raw.format as never)) return `has format ${JSON.stringify(String(raw.format).slice(0, 32))}, not one of ${FORMATS.join(', ')}`
      return withBounds({ ...field, kind: 'string', ...(raw.format ? { format: raw.format as ElicitationField['format'] } : {}) }, raw, ['minLength', 'maxLength'])
    }
    case 'number':
    case 'integer':
      return withBounds({ ...field, kind: raw.type }, raw, ['minimum', 'maximum'])
    case 'boolean':
      return { ...field, kind: 'boolean' }
    case 'array': {
      const items = raw.items
      if (!isRecord(items)) return 'is an array without items: only arrays of enum strings are allowed'
      const options = items.enum !== undefined ? plainOptions(items.enum, undefined, quote) : items.anyOf !== undefined ? titledOptions(items.anyOf, quote) : 'is an array of free values: only arrays of enum strings are allowed'
      if (typeof options === 'string') return options
      return withBounds({ ...field, kind: 'choices', options }, raw, ['minItems', 'maxItems'])
    }
    default:
      return `has type ${JSON.stringify(String(raw.type).slice(0, 32))}: only string, number, integer, boolean and arrays of enum strings are allowed`
  }
}

type Options = NonNullable<ElicitationField['options']>

function plainOptions(values: unknown, names: unknown, quote: Quote): Options | string {
  if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string')) return 'has an enum that is not a non-empty list of strings'
  if (names !== undefined && (!Array.isArray(names) || names.length !== values.length || names.some((n) => typeof n !== 'string'))) return 'has enumNames that do not match its enum'
  return boundedOptions((values as string[]).map((value, i) => ({ value, label: quote(names ? (names as string[])[i]! : value, FORM_LIMITS.maxOptionChars) })))
}

function titledOptions(entries: unknown, quote: Quote): Options | string {
  if (!Array.isArray(entries) || entries.length === 0) return 'has a oneOf/anyOf that is not a non-empty list'
  const options: Options = []
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.const !== 'string') return 'has a oneOf/anyOf entry without a string const'
    options.push({ value: entry.const, label: quote(typeof entry.title === 'string' ? entry.title : entry.const, FORM_LIMITS.maxOptionChars) })
  }
  return boundedOptions(options)
}

function boundedOptions(options: Options): Options | string {
  if (options.length > FORM_LIMITS.maxOptions) return `offers ${options.length} options, more than ${FORM_LIMITS.maxOptions}`
  if (options.some((o) => o.value.length > FORM_LIMITS.maxOptionChars)) return `has an option longer than ${FORM_LIMITS.maxOptionChars} characters`
  return options
}

type Bound = 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems'

function withBounds(field: ElicitationField, raw: Record<string, unknown>, keys: [Bound, Bound]): ElicitationField | string {
  for (const key of keys) {
    const value = raw[key]
    if (value === undefined) continue
    const count = key !== 'minimum' && key !== 'maximum'
    if (typeof value !== 'number' || !Number.isFinite(value) || (count && (!Number.isInteger(value) || value < 0))) return `has ${key} that is not ${count ? 'a count' : 'a number'}`
    field[key] = value
  }
  const [low, high] = keys.map((key) => field[key])
  if (low !== undefined && high !== undefined && low > high) return `has ${keys[0]} above ${keys[1]}`
  return field
}

export type AnswerCheck = { ok: true; content: Record<string, ElicitationValue> } | { ok: false; problem: string }

/**
 * The host's accepted content, with each left-out field's default filled in (SEP-1034: a default
 * is the value a person who did not change it gave), checked against the form before it is sent:
 * only its fields, every required one, each value of its kind and within its bounds.
 */
export function completeAnswer(fields: readonly ElicitationField[], content: unknown): AnswerCheck {
  if (content !== undefined && !isRecord(content)) return { ok: false, problem: 'the content is not an object' }
  const given = content ?? {}
  const known = new Set(fields.map((f) => f.name))
  const stray = Object.keys(given).find((name) => !known.has(name))
  if (stray !== undefined) return { ok: false, problem: `the content names ${JSON.stringify(stray.slice(0, 64))}, which is not a field of the form` }
  const out: Record<string, ElicitationValue> = {}
  for (const field of fields) {
    const value = given[field.name] ?? field.default
    if (value === undefined) {
      if (field.required) return { ok: false, problem: `the required field ${JSON.stringify(field.name)} has no value` }
      continue
    }
    const problem = valueProblem(field, value)
    if (problem) return { ok: false, problem: `the value of ${JSON.stringify(field.name)} ${problem}` }
    out[field.name] = value as ElicitationValue
  }
  return { ok: true, content: out }
}

/** Why `value` does not fit `field`, or undefined when it does. */
function valueProblem(field: ElicitationField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') return 'is not a string'
      if (field.minLength !== undefined && value.length < field.minLength) return `is shorter than ${field.minLength} characters`
      if (field.maxLength !== undefined && value.length > field.maxLength) return `is longer than ${field.maxLength} characters`
      if (field.format && !fitsFormat(field.format, value)) return `is not a valid ${field.format}`
      return undefined
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a number'
      if (field.kind === 'integer' && !Number.isInteger(value)) return 'is not an integer'
      if (field.minimum !== undefined && value < field.minimum) return `is below ${field.minimum}`
      if (field.maximum !== undefined && value > field.maximum) return `is above ${field.maximum}`
      return undefined
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'is not a boolean'
    case 'choice':
      return typeof value === 'string' && field.options!.some((o) => o.value === value) ? undefined : 'is not one of the options'
    case 'choices': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !field.options!.some((o) => o.value === v))) return 'is not a list of the options'
      if (field.minItems !== undefined && value.length < field.minItems) return `picks fewer than ${field.minItems}`
      if (field.maxItems !== undefined && value.length > field.maxItems) return `picks more than ${field.maxItems}`
      return undefined
    }
  }
}

function fitsFormat(format: NonNullable<ElicitationField['format']>, value: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(value)
    case 'uri':
      return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) && URL.canParse(value)
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value) && !Number.isNaN(Date.parse(value))
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
