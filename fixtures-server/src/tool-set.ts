import type { StepSpec, ToolSpec } from './schema.ts'

export type ToolEntry = Record<string, unknown>

const DEFAULT_INPUT_SCHEMA = { type: 'object' }

/**
 * The fixture's current tool list, kept exactly as scripted: duplicates, odd names and broken
 * schemas are served as they are. The generation counts applied changes.
 */
export class ToolSet {
  private tools: ToolSpec[]
  generation = 1

  constructor(tools: readonly ToolSpec[]) {
    this.tools = [...tools]
  }

  /** The first tool with this raw name (a repeated name answers as its first entry). */
  find(name: string): ToolSpec | undefined {
    return this.tools.find((tool) => tool.name === name)
  }

  list(): ToolEntry[] {
    return this.tools.map(toolEntry)
  }

  /** Applies a list_changed step's changes; a step without changes leaves the generation alone. */
  apply(step: StepSpec): void {
    const { remove = [], rename = [], update = [], add = [] } = step
    if (remove.length + rename.length + update.length + add.length === 0) return
    this.tools = this.tools.filter((tool) => !remove.includes(tool.name))
    for (const { from, to } of rename) this.tools = this.tools.map((tool) => (tool.name === from ? { ...tool, name: to } : tool))
    for (const { name, ...fields } of update) {
      const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
      this.tools = this.tools.map((tool) => (tool.name === name ? { ...tool, ...defined } : tool))
    }
    this.tools.push(...add)
    this.generation++
  }
}

/** The tools/list entry for a scripted tool: only listing fields, in the spec's order. */
export function toolEntry(tool: ToolSpec): ToolEntry {
  const entry: ToolEntry = { name: tool.name }
  if (tool.title !== undefined) entry.title = tool.title
  if (tool.description !== undefined) entry.description = tool.description
  if (tool.inputSchema !== null) entry.inputSchema = tool.inputSchema ?? DEFAULT_INPUT_SCHEMA
  if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema
  if (tool.annotations !== undefined) entry.annotations = tool.annotations
  if (tool.execution !== undefined) entry.execution = tool.execution
  return entry
}
