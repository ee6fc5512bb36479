import { BridgeError, errorMessage } from './errors.ts'
import type { ToolDefinition, ToolsService } from './host/types.ts'

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

  private readonly registerAll: (definitions: ToolDefinition[]) => Array<() => void>

  /** Uses the registry's all-or-nothing `registerMany` when it has one, else `register` one by one. */
  constructor(registry: Pick<ToolsService, 'register' | 'registerMany'>) {
    this.registerAll = registry.registerMany
      ? (definitions) => registry.registerMany!(definitions)
      : (definitions) => {
          const disposers: Array<() => void> = []
          try {
            for (const definition of definitions) disposers.push(registry.register(definition))
          } catch (error) {
            for (const dispose of disposers) dispose()
            throw error
          }
          return disposers
        }
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
    const fresh = [...next].filter(([name]) => !kept.has(name)).map(([, entry]) => ({ signature: entry.signature, definition: entry.create() }))
    let disposers: Array<() => void>
    try {
      disposers = this.registerAll(fresh.map((entry) => entry.definition))
    } catch (error) {
      const restored = this.registerAll(removed.map((entry) => entry.definition))
      removed.forEach((entry, i) => kept.set(entry.definition.name, { ...entry, dispose: restored[i]! }))
      this.active = kept
      throw new BridgeError(`tool registration failed, kept the previous ${kept.size} tools: ${errorMessage(error)}`, 'NAME_CONFLICT', {
        cause: error,
      })
    }
    fresh.forEach((entry, i) => kept.set(entry.definition.name, { ...entry, dispose: disposers[i]! }))
    this.active = kept
  }

  clear(): void {
    for (const entry of this.active.values()) entry.dispose()
    this.active = new Map()
  }
}
