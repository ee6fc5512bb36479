import { BridgeError, errorMessage } from './errors.ts'
import type { ToolDefinition } from './host/types.ts'

/**
 * One tool of a generation. `signature` changes whenever anything about the tool changes; the
 * definition is only built for tools that are new or changed.
 */
export interface GenerationEntry {
  name: string
  signature: string
  create(): ToolDefinition
}

interface Registered {
  signature: string
  definition: ToolDefinition
  dispose: () => void
}

/**
 * The generation of tools one server currently has registered. A swap touches only the tools that
 * changed, so a re-sync of 10,000 tools that renames one re-registers one. Swaps are synchronous,
 * so no observer of the registry ever sees a half-applied generation, and a failed swap restores
 * the previous generation before it reports.
 */
export class ToolSet {
  private active = new Map<string, Registered>()

  constructor(private readonly register: (definition: ToolDefinition) => () => void) {}

  get names(): string[] {
    return [...this.active.keys()]
  }

  swap(entries: GenerationEntry[]): void {
    const next = new Map(entries.map((entry) => [entry.name, entry]))
    const kept = new Map<string, Registered>()
    const removed: Registered[] = []
    for (const [name, current] of this.active) {
      if (next.get(name)?.signature === current.signature) kept.set(name, current)
      else removed.push(current)
    }
    for (const entry of removed) entry.dispose()
    const added: Registered[] = []
    try {
      for (const [name, entry] of next) {
        if (kept.has(name)) continue
        const definition = entry.create()
        added.push({ signature: entry.signature, definition, dispose: this.register(definition) })
      }
    } catch (error) {
      for (const entry of added) entry.dispose()
      for (const entry of removed) kept.set(entry.definition.name, { ...entry, dispose: this.register(entry.definition) })
      this.active = kept
      throw new BridgeError(`tool registration failed, kept the previous ${kept.size} tools: ${errorMessage(error)}`, 'NAME_CONFLICT', {
        cause: error,
      })
    }
    for (const entry of added) kept.set(entry.definition.name, entry)
    this.active = kept
  }

  clear(): void {
    for (const entry of this.active.values()) entry.dispose()
    this.active = new Map()
  }
}
