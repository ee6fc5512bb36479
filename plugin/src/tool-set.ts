import { BridgeError, errorMessage } from './errors.ts'
import type { ToolDefinition, ToolsService } from './host-contract.ts'

/**
 * One tool of a generation. `signature` changes whenever anything about the tool changes; it is
 * read only for a tool whose name is registered already (so it may be computed on read), and the
 * definition is only built for tools that are new or changed.
 */
export interface GenerationEntry {
  readonly name: string
  readonly signature: string
  create(): ToolDefinition
}

interface Registered {
  definition: ToolDefinition
  dispose: () => void
  /** Kept only for a definition that cannot tell its own (see signatureOf). */
  signature?: string
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
    const active = this.active
    const kept = new Map<string, Registered>()
    const fresh: GenerationEntry[] = []
    for (const entry of entries) {
      const current = active.get(entry.name)
      if (current && signatureOf(current) === entry.signature) kept.set(entry.name, current)
      else fresh.push(entry)
    }
    const removed: Registered[] = []
    for (const [name, current] of active) if (!kept.has(name)) removed.push(current)
    for (const entry of removed) entry.dispose()
    const definitions = fresh.map((entry) => entry.create())
    let disposers: Array<() => void>
    try {
      disposers = this.registerAll(definitions)
    } catch (error) {
      const restored = this.registerAll(removed.map((entry) => entry.definition))
      removed.forEach((entry, i) => {
        entry.dispose = restored[i]!
        kept.set(entry.definition.name, entry)
      })
      this.active = kept
      throw new BridgeError(`tool registration failed, kept the previous ${kept.size} tools: ${errorMessage(error)}`, 'NAME_CONFLICT', {
        cause: error,
      })
    }
    for (let i = 0; i < fresh.length; i++) {
      const definition = definitions[i]!
      const registered: Registered = { definition, dispose: disposers[i]! }
      if (!('signature' in definition)) registered.signature = fresh[i]!.signature
      kept.set(fresh[i]!.name, registered)
    }
    this.active = kept
  }

  clear(): void {
    for (const entry of this.active.values()) entry.dispose()
    this.active = new Map()
  }
}

/**
 * A definition that can recompute its own signature (the bridge's do: definition.ts) is asked
 * for it at the next swap; the set keeps no copy of a string that is mostly the tool's schema.
 */
function signatureOf(registered: Registered): string | undefined {
  return registered.signature ?? ownSignature(registered.definition)
}

function ownSignature(definition: ToolDefinition): string | undefined {
  const signature = (definition as { signature?: unknown }).signature
  return typeof signature === 'string' ? signature : undefined
}
