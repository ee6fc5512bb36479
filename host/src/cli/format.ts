import type { ContentBlock, ToolResult, ToolSchema } from '@mcp-bridge/plugin'
import { escapeControls, escapeControlsInJson as terminalJson } from '@mcp-bridge/process'
import { schemaLines } from './schema-text.ts'

/*
 * Names, descriptions, schemas and results come from MCP servers, and this output goes to a
 * terminal or a pipe: a control character in them is shown as its escape (escapeControls), so an
 * escape sequence can neither retitle the window nor redraw a line, and a carriage return cannot
 * overwrite what the layout printed. A text's own line breaks still make lines (indented where
 * the layout indents them).
 */

/** Pure: the tool list as a person reads it: name, full description, arguments. */
export function formatTools(tools: readonly ToolSchema[]): string {
  if (!tools.length) return '(no tools)\n'
  const blocks = tools.map((tool) => {
    const description = tool.description.trim() ? shownLines(tool.description.trim()).map((line) => `  ${line}`) : ['  (no description)']
    return [escapeControls(tool.name), ...description, '  arguments:', ...schemaLines(tool.parameters, '    ').map(escapeControls)].join('\n')
  })
  return `${blocks.join('\n\n')}\n`
}

/** Pure: the tool list exactly as it is handed to a model. */
export function toolsJson(tools: readonly ToolSchema[]): string {
  return `${terminalJson(JSON.stringify(tools.map(({ name, description, parameters }) => ({ name, description, parameters })), null, 2))}\n`
}

/** Pure: what the model sees of a call (its content), then the canonical value or the error. */
export function formatResult(result: ToolResult): string {
  const content = contentText(result.content)
  const detail = result.isError
    ? `--- error (${escapeControls(result.error.code)}) ---\n${shownLines(result.error.message).join('\n')}`
    : `--- value ---\n${terminalJson(JSON.stringify(result.value, null, 2) ?? 'undefined')}`
  return `--- content (what the model sees) ---\n${content}\n${detail}\n`
}

/** Pure: the whole result as JSON. */
export function resultJson(result: ToolResult): string {
  return `${terminalJson(JSON.stringify(result, null, 2))}\n`
}

/** Non-text blocks (images saved as attachments) are shown as their reference, never inlined. */
function contentText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'text') return shownLines(block.text).join('\n')
      const { type, ...reference } = block as { type: string }
      return `[${escapeControls(type)} ${terminalJson(JSON.stringify(reference))}]`
    })
    .join('\n')
}

/** A text's lines (`\n` or `\r\n` ends one), each with its control characters escaped. */
function shownLines(text: string): string[] {
  return text.split(/\r?\n/).map(escapeControls)
}
