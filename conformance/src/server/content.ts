/**
 * Pure shape validators for what servers return (content blocks, tool results, resource
 * contents, prompt messages). Each returns human-readable problems; an empty list means valid.
 * They check the schema's required fields and types, not optional extras.
 */
import { isObject } from './check.ts'

export function contentBlockProblems(block: unknown, where: string): string[] {
  if (!isObject(block)) return [`${where} is not an object`]
  const type = block.type
  const need = (field: string): string[] => (typeof block[field] === 'string' ? [] : [`${where} (${String(type)}) has no string "${field}"`])
  switch (type) {
    case 'text':
      return need('text')
    case 'image':
    case 'audio':
      return [...need('data'), ...need('mimeType')]
    case 'resource_link':
      return [...need('uri'), ...need('name')]
    case 'resource':
      return resourceContentsProblems(block.resource, `${where}.resource`)
    default:
      return [`${where} has unknown content type ${JSON.stringify(type)?.slice(0, 40) ?? 'undefined'}`]
  }
}

export function resourceContentsProblems(value: unknown, where: string): string[] {
  if (!isObject(value)) return [`${where} is not an object`]
  const problems: string[] = []
  if (typeof value.uri !== 'string') problems.push(`${where} has no string "uri"`)
  const hasText = typeof value.text === 'string'
  const hasBlob = typeof value.blob === 'string'
  if (!hasText && !hasBlob) problems.push(`${where} has neither a string "text" nor a string "blob"`)
  return problems
}

/** CallToolResult: `content` array of valid blocks, optional boolean isError, optional object structuredContent. */
export function callResultProblems(result: unknown): string[] {
  if (!isObject(result)) return ['the result is not an object']
  const problems: string[] = []
  if (!Array.isArray(result.content)) problems.push('"content" is not an array')
  else result.content.forEach((block, i) => problems.push(...contentBlockProblems(block, `content[${i}]`)))
  if ('isError' in result && typeof result.isError !== 'boolean') problems.push('"isError" is not a boolean')
  if ('structuredContent' in result && !isObject(result.structuredContent)) problems.push('"structuredContent" is not an object')
  return problems
}

export function readResultProblems(result: unknown): string[] {
  if (!isObject(result)) return ['the result is not an object']
  if (!Array.isArray(result.contents)) return ['"contents" is not an array']
  return result.contents.flatMap((item, i) => resourceContentsProblems(item, `contents[${i}]`))
}

export function promptResultProblems(result: unknown): string[] {
  if (!isObject(result)) return ['the result is not an object']
  if (!Array.isArray(result.messages)) return ['"messages" is not an array']
  return result.messages.flatMap((message, i) => {
    if (!isObject(message)) return [`messages[${i}] is not an object`]
    const problems: string[] = []
    if (message.role !== 'user' && message.role !== 'assistant') problems.push(`messages[${i}].role is not "user" or "assistant"`)
    problems.push(...contentBlockProblems(message.content, `messages[${i}].content`))
    return problems
  })
}

/** A result that reads as "it worked": not an error result. */
export function isErrorResult(result: unknown): boolean {
  return isObject(result) && result.isError === true
}

/** The text of an error result, for messages. */
export function resultText(result: unknown, max = 160): string {
  if (!isObject(result) || !Array.isArray(result.content)) return ''
  const text = result.content
    .filter((b): b is Record<string, unknown> => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join(' ')
  return text.length <= max ? text : `${text.slice(0, max)}…`
}
