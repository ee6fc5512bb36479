import { BridgeError, errorMessage } from './errors.ts'
import type { ToolDefinition } from './host/types.ts'

interface Registered {
  definition: ToolDefinition
  dispose: () => void
}

/**
 * The generation of tools one server currently has registered. Swaps are synchronous, so no
 * observer of the registry ever sees a half-applied generation; a failed swap restores the
 * previous generation before it reports.
 */
export class ToolSet {
  private active: Registered[] = []

  constructor(private readonly register: (definition: ToolDefinition) => () => void) {}

  get names(): string[] {
    return this.active.map((entry) => entry.definition.name)
  }

  swap(definitions: ToolDefinition[]): void {
    const previous = this.active
    for (const entry of previous) entry.dispose()
    const next: Registered[] = []
    try {
      for (const definition of definitions) next.push({ definition, dispose: this.register(definition) })
    } catch (error) {
      for (const entry of next) entry.dispose()
      this.active = previous.map(({ definition }) => ({ definition, dispose: this.register(definition) }))
      throw new BridgeError(
        `tool registration failed, kept the previous ${previous.length} tools: ${errorMessage(error)}`,
        'NAME_CONFLICT',
        { cause: error },
      )
    }
    this.active = next
  }

  clear(): void {
    for (const entry of this.active) entry.dispose()
    this.active = []
  }
}
