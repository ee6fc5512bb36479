import type { LimitsConfig } from '../config.ts'
import { BridgeError } from '../errors.ts'
import { jsonByteLength, jsonFitsInBytes } from '@mcp-bridge/process'
import { isRecord } from '@mcp-bridge/process'

export interface PromptResult {
  description?: string
  messages: Record<string, unknown>[]
}

/** Characters of a caller's argument name or value quoted in an error. */
const QUOTED_CHARS = 80

/**
 * Pure: checks a caller's arguments against the prompt as the server listed it, before anything
 * is sent. Values are strings (prompts/get's `arguments` maps names to strings in the
 * MCP 2025-11-25 schema), every argument the prompt marks required is present, and none it does
 * not declare is passed. Throws INVALID_ARGS naming the argument and the fix.
 */
export function checkPromptArguments(prompt: Record<string, unknown>, args: unknown): Record<string, string> {
  const name = String(prompt.name).slice(0, QUOTED_CHARS)
  const refuse = (why: string) => new BridgeError(`invalid arguments for prompt "${name}": ${why}`, 'INVALID_ARGS')
  if (!isRecord(args)) throw refuse('pass an object of string values')
  const declared = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isRecord) : []
  const known = new Set(declared.map((argument) => argument.name).filter((key) => typeof key === 'string'))
  for (const [key, value] of Object.entries(args)) {
    const shown = key.slice(0, QUOTED_CHARS)
    if (!known.has(key)) throw refuse(`"${shown}" is not one of its arguments (${[...known].join(', ') || 'it takes none'})`)
    if (typeof value !== 'string') throw refuse(`"${shown}" must be a string, not ${value === null ? 'null' : typeof value}`)
  }
  const missing = declared.filter((argument) => argument.required === true && typeof argument.name === 'string' && !(argument.name in args)).map((argument) => argument.name as string)
  if (missing.length) throw refuse(`missing required ${missing.length === 1 ? 'argument' : 'arguments'} ${missing.map((key) => `"${key.slice(0, QUOTED_CHARS)}"`).join(', ')}`)
  return args as Record<string, string>
}

/** Pure: a prompts/get result as callers get it (its description and messages), or why it is refused. */
export function promptResult(result: Record<string, unknown>, name: string, limits: Pick<LimitsConfig, 'maxResultBytes'>): PromptResult {
  const refuse = (why: string) => new BridgeError(`prompts/get of "${name.slice(0, QUOTED_CHARS)}" returned ${why}`, 'INVALID_RESULT')
  if (!jsonFitsInBytes(result, limits.maxResultBytes)) throw refuse(`${jsonByteLength(result)} bytes, over limits.maxResultBytes (${limits.maxResultBytes})`)
  if (!Array.isArray(result.messages) || !result.messages.every(isRecord)) throw refuse('no "messages" array of objects')
  return { ...(typeof result.description === 'string' && { description: result.description }), messages: result.messages }
}
