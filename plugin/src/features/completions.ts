import { BridgeError } from '../errors.ts'
import { isRecord } from '@mcp-bridge/process'

/** What completion/complete completes: a prompt's argument or a resource template's. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

export interface Completion {
  values: string[]
  total?: number
  hasMore?: boolean
}

/** "values: Array of completion values (max 100 items)" (MCP 2025-11-25 §server/utilities/completion). */
export const MAX_COMPLETION_VALUES = 100
/** A completion is a word or a path, not a document. */
export const MAX_COMPLETION_CHARS = 1_000

/** Pure: the request's params, or INVALID_ARGS naming the field. */
export function completionParams(ref: unknown, argument: unknown): { ref: CompletionRef; argument: { name: string; value: string } } {
  const refuse = (why: string) => new BridgeError(`invalid completion request: ${why}`, 'INVALID_ARGS')
  if (!isRecord(ref) || !((ref.type === 'ref/prompt' && typeof ref.name === 'string') || (ref.type === 'ref/resource' && typeof ref.uri === 'string'))) {
    throw refuse('ref must be { type: "ref/prompt", name } or { type: "ref/resource", uri }')
  }
  if (!isRecord(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') throw refuse('argument must be { name, value } with two strings')
  const clean: CompletionRef = ref.type === 'ref/prompt' ? { type: 'ref/prompt', name: ref.name as string } : { type: 'ref/resource', uri: ref.uri as string }
  return { ref: clean, argument: { name: argument.name, value: argument.value } }
}

/**
 * Pure: a completion/complete result as callers get it. Values that are not strings, or are
 * longer than MAX_COMPLETION_CHARS, are left out; past MAX_COMPLETION_VALUES the rest are cut
 * and `hasMore` says so.
 */
export function completionResult(result: Record<string, unknown>): Completion {
  const completion = isRecord(result.completion) ? result.completion : undefined
  if (!completion || !Array.isArray(completion.values)) throw new BridgeError('completion/complete returned no "completion.values" array', 'INVALID_RESULT')
  const strings = completion.values.filter((value): value is string => typeof value === 'string' && value.length <= MAX_COMPLETION_CHARS)
  const values = strings.slice(0, MAX_COMPLETION_VALUES)
  const cut = strings.length > values.length
  return {
    values,
    ...(typeof completion.total === 'number' && Number.isSafeInteger(completion.total) && { total: completion.total }),
    ...((cut || typeof completion.hasMore === 'boolean') && { hasMore: cut || completion.hasMore === true }),
  }
}
