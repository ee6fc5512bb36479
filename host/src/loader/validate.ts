import { isRecord } from '@mcp-bridge/process'

/** The part of Standard Schema v1 the loader uses (declared here: the spec package is not a dependency). */
interface StandardIssue {
  message: string
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>
}
type StandardResult = { value: unknown; issues?: undefined } | { issues: readonly StandardIssue[] }
interface StandardSchema {
  '~standard': { validate(value: unknown): StandardResult | Promise<StandardResult> }
}

export type Validation =
  | { ok: true; value: unknown; ignored: string[] }
  | { ok: false; issues: { field: string; message: string }[] }

/**
 * Pure: checks an entry's config against its plugin's `Config` (any Standard Schema, as Cordis 4
 * does) before Cordis sees it, so a bad config is reported against the entry and field, and a
 * running instance is never torn down for a config that cannot start.
 */
export function validateConfig(schema: unknown, config: unknown): Validation {
  const standard = (schema as Partial<StandardSchema> | undefined)?.['~standard']
  if (!standard || typeof standard.validate !== 'function') return { ok: true, value: config, ignored: [] }
  let result: StandardResult | Promise<StandardResult>
  try {
    result = standard.validate(config)
  } catch (error) {
    return { ok: false, issues: [{ field: 'config', message: error instanceof Error ? error.message : String(error) }] }
  }
  if (result instanceof Promise) {
    return { ok: false, issues: [{ field: 'config', message: 'the plugin has an async Config schema, which Cordis does not support' }] }
  }
  if (result.issues) return { ok: false, issues: result.issues.map(describeIssue) }
  return { ok: true, value: result.value, ignored: droppedKeys(config, result.value, 'config') }
}

function describeIssue(issue: StandardIssue): { field: string; message: string } {
  // Written as the loader writes fields elsewhere: `config.tools.include[0]`.
  const field = (issue.path ?? []).reduce<string>((at, segment) => {
    const key = typeof segment === 'object' ? segment.key : segment
    return typeof key === 'number' ? `${at}[${key}]` : `${at}.${String(key)}`
  }, 'config')
  // Schemastery prefixes the path it already reports ("$.a.b ...") and plugins often prefix their own name.
  const message = issue.message.replace(/^\$(\.[^\s]+)? /, '').replace(/^[\w-]+ config: /, '')
  return { field, message }
}

/** Keys the schema silently dropped: almost always a typo the user wants to hear about. */
function droppedKeys(input: unknown, output: unknown, path: string): string[] {
  if (!isRecord(input) || !isRecord(output)) return []
  return Object.keys(input).flatMap((key) =>
    Object.hasOwn(output, key) ? droppedKeys(input[key], output[key], `${path}.${key}`) : [`${path}.${key}`],
  )
}
