type Schema = Record<string, unknown>

const MAX_DEPTH = 4

/**
 * Pure: a JSON Schema as indented lines a person can scan: one line per property with its type,
 * whether it is required, its default, and its description. Nested objects are expanded.
 */
export function schemaLines(schema: unknown, indent = '', depth = 0): string[] {
  if (!isSchema(schema)) return [`${indent}(any arguments)`]
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [])
  const names = Object.keys(properties)
  if (!names.length) return [`${indent}${schema.additionalProperties === false || typeof schema.type === 'string' ? '(no arguments)' : '(any arguments)'}`]
  const width = Math.min(24, Math.max(...names.map((name) => name.length)))
  return names.flatMap((name) => {
    const property = isSchema(properties[name]) ? properties[name] : {}
    const facts = [typeText(property), required.has(name) ? 'required' : 'optional']
    if (property.default !== undefined) facts.push(`default ${JSON.stringify(property.default)}`)
    const description = typeof property.description === 'string' ? `  ${oneLine(property.description)}` : ''
    const line = `${indent}${name.padEnd(width)}  ${facts.join(', ')}${description}`
    const nested = nestedObject(property)
    return nested && depth < MAX_DEPTH ? [line, ...schemaLines(nested, `${indent}  `, depth + 1)] : [line]
  })
}

/** Pure: a schema's type in a few words: `string`, `"a" | "b"`, `array of number`, `integer 1..10`. */
export function typeText(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  const variants = [schema.anyOf, schema.oneOf].find(Array.isArray)
  if (variants) return (variants as unknown[]).map((variant) => (isSchema(variant) ? typeText(variant) : 'any')).join(' | ')
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : typeof schema.type === 'string' ? schema.type : 'any'
  if (type === 'array') return `array of ${isSchema(schema.items) ? typeText(schema.items) : 'any'}`
  const min = schema.minimum ?? schema.minLength
  const max = schema.maximum ?? schema.maxLength
  const range = min !== undefined || max !== undefined ? ` ${min ?? ''}..${max ?? ''}` : ''
  return `${type}${range}${typeof schema.format === 'string' ? ` (${schema.format})` : ''}`
}

function nestedObject(schema: Schema): Schema | undefined {
  if (isSchema(schema.properties)) return schema
  if (schema.type === 'array' && isSchema(schema.items) && isSchema(schema.items.properties)) return schema.items
  return undefined
}

/** Property descriptions are shown in full (the model reads all of it), on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
