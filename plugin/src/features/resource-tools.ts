import type { Config } from '../config.ts'
import type { ServerConnection } from '../connection.ts'
import { PlannedTool, type DefinitionOptions } from '../definition.ts'
import type { BridgedTool } from '../discovery.ts'
import type { ToolsService } from '../host-contract.ts'
import type { ImageServices } from '../image-admission.ts'
import { SchemaCompiler } from '@mcp-bridge/process'
import { publicToolName } from '../naming.ts'
import { type GenerationEntry, ToolSet } from '../tool-set.ts'

/** The raw names of the two model tools; a server tool of either name is left out while they are on. */
const LIST = 'list_resources'
const READ = 'read_resource'

/**
 * The instance's tool set: the plain one, or, with features.resourceTools, one that registers
 * `list_resources` and `read_resource` beside the server's tools in every generation it swaps in.
 * `connection` is read only when a generation is swapped, so it may be built after this. Every
 * module this file imports is one the tool path loads anyway.
 */
export function toolSetFor(registry: ToolsService, config: Config, connection: () => ServerConnection, imageServices: () => ImageServices): ToolSet {
  return config.features.resourceTools ? new ResourceToolSet(registry, config, connection, imageServices) : new ToolSet(registry)
}

/**
 * Registered and withdrawn with the server's tools, so they come and go together: a generation
 * of a session that declares `resources` gains the two tools; one that does not, or a cleared
 * set (the server went), has neither. Their definitions never change, so a re-sync keeps them.
 */
class ResourceToolSet extends ToolSet {
  private readonly definitions: BridgedTool[]
  private readonly options: DefinitionOptions

  constructor(
    registry: ToolsService,
    private readonly config: Config,
    private readonly connection: () => ServerConnection,
    imageServices: () => ImageServices,
  ) {
    super(registry)
    const { serverName } = config
    this.definitions = [
      {
        rawName: LIST,
        publicName: publicToolName(serverName, LIST),
        description: `Lists the resources of MCP server "${serverName}", one page at a time: pass a returned nextCursor as cursor for the next page.`,
        inputSchema: { type: 'object', properties: { cursor: { type: 'string', description: 'The nextCursor of the previous page; leave out for the first.' } }, additionalProperties: false },
      },
      {
        rawName: READ,
        publicName: publicToolName(serverName, READ),
        description: `Reads one resource of MCP server "${serverName}" by the URI its resource list gives.`,
        inputSchema: { type: 'object', properties: { uri: { type: 'string', minLength: 1, description: 'The URI of a listed resource, exactly as listed.' } }, required: ['uri'], additionalProperties: false },
      },
    ]
    this.options = {
      serverName,
      compiler: new SchemaCompiler(),
      invoke: (rawName, args, exec) => this.invoke(rawName, args, exec.signal),
      limits: config.limits,
      imageServices,
      warn: (message) => this.connection().log.warn('%s', message),
      redact: (text) => this.connection().redact(text),
    }
  }

  override swap(entries: GenerationEntry[]): void {
    const connection = this.connection()
    let declared = false
    try {
      declared = connection.live().capabilities.resources !== undefined
    } catch {
      // No live session: a generation without one is the server's going, and takes both tools.
    }
    if (!declared) return super.swap(entries)
    const ours = new Set(this.definitions.map((tool) => tool.publicName))
    // Only the exact raw names map to these public names (naming.ts hashes any other spelling).
    const clashing = entries.filter((entry) => ours.has(entry.name))
    if (clashing.length > 0) {
      connection.log.warn(
        'server "%s" has a tool named %s, left out: features.resourceTools registers that name for reading its resources',
        this.config.serverName,
        clashing.map((entry) => `"${entry.name}"`).join(' and '),
      )
    }
    super.swap([...entries.filter((entry) => !ours.has(entry.name)), ...this.definitions.map((tool) => new PlannedTool(tool, this.options))])
  }

  private async invoke(rawName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const session = this.connection().live()
    // Imported on the first call: a tools-only host loads only this file of the feature.
    const { listPageAsToolResult, readAsToolResult } = await import('./resource-results.ts')
    if (rawName === LIST) {
      const cursor = args.cursor
      return listPageAsToolResult(await session.request('resources/list', typeof cursor === 'string' ? { cursor } : {}, signal))
    }
    const uri = args.uri as string
    return readAsToolResult(await session.request('resources/read', { uri }, signal), uri, this.config.limits)
  }
}
