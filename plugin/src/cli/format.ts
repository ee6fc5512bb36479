import type { ContentBlock, ToolResult, ToolSchema } from '../host/types.ts'
import { schemaLines } from './schema-text.ts'

/** Pure: the tool list as a person reads it: name, full description, arguments. */
export function formatTools(tools: readonly ToolSchema[]): string {
  if (!tools.length) return '(no tools)\n'
  const blocks = tools.map((tool) => {
    const description = tool.description.trim() ? tool.description.trim().split('\n').map((line) => `  ${line}`) : ['  (no description)']
    return [tool.name, ...description, '  arguments:', ...schemaLines(tool.parameters, '    ')].join('\n')
  })
  return `${blocks.join('\n\n')}\n`
}

/** Pure: the tool list exactly as it is handed to a model. */
export function toolsJson(tools: readonly ToolSchema[]): string {
  return `${JSON.stringify(tools.map(({ name, description, parameters }) => ({ name, description, parameters })), null, 2)}\n`
}

/** Pure: what the model sees of a call (its content), then the canonical value or the error. */
export function formatResult(result: ToolResult): string {
  const content = contentText(result.content)
  const detail = result.isError
    ? `--- error (${result.error.code}) ---\n${result.error.message}`
    : `--- value ---\n${JSON.stringify(result.value, null, 2) ?? 'undefined'}`
  return `--- content (what the model sees) ---\n${content}\n${detail}\n`
}

/** Pure: the whole result as JSON. */
export function resultJson(result: ToolResult): string {
  return `${JSON.stringify(result, null, 2)}\n`
}

/** Non-text blocks (images saved as attachments) are shown as their reference, never inlined. */
function contentText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'text') return block.text
      const { type, ...reference } = block as { type: string }
      return `[${type} ${JSON.stringify(reference)}]`
    })
    .join('\n')
}
