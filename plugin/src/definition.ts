import type { BridgedTool } from './discovery.ts'
import { BridgeError } from './errors.ts'
import type { ToolDefinition, ToolExecution } from './host/types.ts'
import { projectContent } from './projection.ts'

/** The canonical value of a successful call: protocol-complete blocks for programmatic callers. */
export interface McpResult {
  content: unknown[]
  structuredContent?: unknown
}

/** Sends one tools/call with the raw name; resolves to the server's result object. */
export type InvokeTool = (rawName: string, args: Record<string, unknown>, exec: ToolExecution) => Promise<unknown>

export function createDefinition(tool: BridgedTool, invoke: InvokeTool): ToolDefinition {
  const { rawName } = tool
  return {
    name: tool.publicName,
    description: tool.description,
    parameters: tool.inputSchema,
    async execute(args, exec) {
      const input = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {}
      return toCanonical(await invoke(rawName, input, exec), rawName)
    },
    output: { render: (value) => projectContent((value as McpResult).content, rawName) },
  }
}

/** Validates the result's outer shape; `isError` rejects before anything else happens to it. */
export function toCanonical(result: unknown, rawName: string): McpResult {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new BridgeError(`${rawName} returned a result that is not an object`, 'INVALID_RESULT')
  }
  const { content, structuredContent, isError } = result as Record<string, unknown>
  if (content !== undefined && !Array.isArray(content)) {
    throw new BridgeError(`${rawName} returned "content" that is not an array`, 'INVALID_RESULT')
  }
  const blocks = content ?? []
  if (isError === true) {
    const text = projectContent(blocks, rawName)
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n')
    throw new BridgeError(text, 'TOOL_ERROR')
  }
  return structuredContent === undefined ? { content: blocks } : { content: blocks, structuredContent }
}
