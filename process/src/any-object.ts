import { isRecord } from './records.ts'

/**
 * A Standard Schema (standardschema.dev, v1) that accepts any JSON object and hands back the very
 * object it was given: for an SDK request whose result the caller validates itself. It stands in
 * for zod's `z.object({}).passthrough()`, which copies every member of every result into a new
 * object, a cost paid on every call for nothing (issue 40: a 100 KB result's members, and on every
 * echo-sized call about a microsecond of its own). Anything else is refused as that schema refuses
 * it, with one issue at the top.
 */
export interface AnyObjectSchema {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => { value: Record<string, unknown>; issues?: undefined } | { issues: ReadonlyArray<{ message: string }> }
    /** For type inference only (Standard Schema's InferOutput), never set. */
    readonly types?: { readonly input: unknown; readonly output: Record<string, unknown> }
  }
}

export const ANY_OBJECT: AnyObjectSchema = {
  '~standard': {
    version: 1,
    vendor: 'mcp-bridge',
    validate: (value) => (isRecord(value) ? { value } : { issues: [{ message: `Invalid input: expected object, received ${received(value)}` }] }),
  },
}

/** How zod names what it got, so the SDK's message reads as before. */
function received(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}
