import { isPlainRecord, JSON_SCHEMA_TYPES } from '@mcp-bridge/process'

/**
 * Pure: the JSON Schema subset a host's tool registry may require of `output.schema`. The
 * DeepSeek harness' ToolRuntime (`@deepseek-ai/dsh-tools`, `assertSupportedJsonSchema`) refuses
 * to register a tool whose output schema uses anything else, so the bridge declares an MCP
 * `outputSchema` only when it fits and `{}` (any JSON) otherwise. The rule, as dsh-tools 0.1.0-rc.8
 * states and enforces it:
 *
 * - keywords: `type`, `oneOf`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
 *   `const`, plus the annotations `description`, `title` (strings), `default`, `examples` (JSON);
 *   anything else (`$schema`, `$ref`, `anyOf`, `minimum`, `pattern`, `format`, ...) is out;
 * - a node without `type` or `oneOf` is an annotation-only schema (any JSON) and may carry no
 *   structural keyword; `type` and `oneOf` exclude each other;
 * - `type` is one string of object/array/string/number/integer/boolean/null (no type arrays);
 * - `oneOf` has at least two branches and no structural siblings;
 * - `properties`, `required` and `additionalProperties` (a boolean) only on objects, and every
 *   `required` name is a declared property; `items` (one schema) only on arrays;
 * - `enum` (non-empty) and `const` only on scalar types, with values of that type, and a `const`
 *   beside an `enum` is one of its values.
 *
 * plugin/test/fixtures/schema-subset.json lists schemas with the verdict; the drop-in test
 * (test/dsh/) checks the same verdicts against the real dsh-tools, so the two cannot drift apart
 * unnoticed.
 */

const CONSTRAINTS = new Set(['type', 'oneOf', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const'])
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples'])
const STRUCTURAL = ['properties', 'required', 'additionalProperties', 'items', 'enum', 'const']
const ALLOWED_ON: Record<string, string[]> = {
  properties: ['object'],
  required: ['object'],
  additionalProperties: ['object'],
  items: ['array'],
  enum: ['string', 'number', 'integer', 'boolean', 'null'],
  const: ['string', 'number', 'integer', 'boolean', 'null'],
}

/** Every reason `schema` falls outside the subset, in walk order; empty when it fits. */
export function subsetViolations(schema: unknown): string[] {
  const violations: string[] = []
  visit(schema, 'schema', violations, new Set())
  return violations
}

export function isInSchemaSubset(schema: unknown): boolean {
  return subsetViolations(schema).length === 0
}

function visit(node: unknown, path: string, out: string[], ancestors: Set<object>): void {
  if (!isPlainRecord(node)) {
    out.push(`${path} must be a schema object`)
    return
  }
  if (ancestors.has(node)) {
    out.push(`${path} is circular`)
    return
  }
  ancestors.add(node)
  try {
    checkNode(node, path, out, ancestors)
  } finally {
    ancestors.delete(node)
  }
}

function checkNode(node: Record<string, unknown>, path: string, out: string[], ancestors: Set<object>): void {
  for (const key of Object.keys(node)) {
    if (CONSTRAINTS.has(key)) continue
    if (ANNOTATIONS.has(key)) {
      if (!isJson(node[key])) out.push(`${path}.${key} annotation must be lossless JSON data`)
      continue
    }
    out.push(`${path}.${key} is not a supported keyword`)
  }
  for (const key of ['description', 'title']) {
    if (Object.hasOwn(node, key) && typeof node[key] !== 'string') out.push(`${path}.${key} must be a string`)
  }
  const hasType = Object.hasOwn(node, 'type')
  const hasOneOf = Object.hasOwn(node, 'oneOf')
  if (hasType && hasOneOf) {
    out.push(`${path} cannot declare both type and oneOf`)
    return
  }
  if (!hasType && !hasOneOf) {
    for (const key of STRUCTURAL) if (Object.hasOwn(node, key)) out.push(`${path}.${key} requires type or oneOf`)
    return
  }
  if (hasOneOf) {
    const branches = node.oneOf
    if (!Array.isArray(branches) || branches.length < 2) out.push(`${path}.oneOf must be an array of at least two schemas`)
    else branches.forEach((branch, i) => visit(branch, `${path}.oneOf[${i}]`, out, ancestors))
    for (const key of STRUCTURAL) if (Object.hasOwn(node, key)) out.push(`${path}.${key} is not supported beside oneOf`)
    return
  }
  const type = node.type
  if (typeof type !== 'string' || !JSON_SCHEMA_TYPES.includes(type)) {
    out.push(Array.isArray(type) ? `${path}.type must be a single type string` : `${path}.type must be one of ${JSON_SCHEMA_TYPES.join('/')}`)
    return
  }
  for (const [key, types] of Object.entries(ALLOWED_ON)) {
    if (Object.hasOwn(node, key) && !types.includes(type)) out.push(`${path}.${key} is not supported on type "${type}"`)
  }
  if (type === 'object') checkObject(node, path, out, ancestors)
  else if (type === 'array') {
    if (Object.hasOwn(node, 'items')) visit(node.items, `${path}.items`, out, ancestors)
  } else checkScalar(node, type, path, out)
}

function checkObject(node: Record<string, unknown>, path: string, out: string[], ancestors: Set<object>): void {
  const properties = node.properties
  if (Object.hasOwn(node, 'properties')) {
    if (!isPlainRecord(properties)) out.push(`${path}.properties must be an object of schemas`)
    else for (const [key, child] of Object.entries(properties)) visit(child, `${path}.properties.${key}`, out, ancestors)
  }
  if (Object.hasOwn(node, 'required')) {
    const required = node.required
    if (!Array.isArray(required) || required.some((entry) => typeof entry !== 'string')) out.push(`${path}.required must be an array of strings`)
    else {
      const declared = isPlainRecord(properties) ? properties : {}
      for (const key of required as string[]) if (!Object.hasOwn(declared, key)) out.push(`${path}.required names "${key}" which is not in properties`)
    }
  }
  if (Object.hasOwn(node, 'additionalProperties') && typeof node.additionalProperties !== 'boolean') out.push(`${path}.additionalProperties must be a boolean`)
}

function checkScalar(node: Record<string, unknown>, type: string, path: string, out: string[]): void {
  const allowed = node.enum
  const enumValid = Array.isArray(allowed) && allowed.length > 0 && allowed.every((entry) => scalarMatches(type, entry))
  if (Object.hasOwn(node, 'enum') && !enumValid) out.push(`${path}.enum must be a non-empty array of ${type} values`)
  if (Object.hasOwn(node, 'const')) {
    if (!scalarMatches(type, node.const)) out.push(`${path}.const must be a ${type} value`)
    else if (enumValid && !(allowed as unknown[]).includes(node.const)) out.push(`${path}.const must be one of ${path}.enum when both are declared`)
  }
}

function scalarMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return isJsonNumber(value)
    case 'integer':
      return isJsonNumber(value) && Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return value === null
  }
}

/** Finite and not -0: what survives a JSON round trip unchanged. */
function isJsonNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return isJsonNumber(value)
  if (Array.isArray(value)) return value.every(isJson)
  return isPlainRecord(value) && Object.values(value).every(isJson)
}
