import { quoteUntrusted, type Redact } from '@mcp-bridge/process'
import type { Config } from '../config.ts'
import type { ServerConnection } from '../connection.ts'
import { BridgeError } from '../errors.ts'
import type { ConnectionState } from '../host-contract.ts'
import type { Log } from '../log.ts'
import type { Session } from '../session.ts'
import { completionParams, completionResult, type Completion } from './completions.ts'
import type { FeaturesConfig } from './config.ts'
import { drainList, type ListKind } from './lists.ts'
import { checkPromptArguments, promptResult, type PromptResult } from './prompts.ts'
import { readResult, type ReadResult } from './resources.ts'

export interface FeatureCallOptions {
  /** Ends the request: the server is sent notifications/cancelled. */
  signal?: AbortSignal
}

/** The capability each feature needs the server to have declared, and the feature flag that offers it. */
const NEEDS = {
  resources: { capability: 'resources', flag: 'resources' },
  prompts: { capability: 'prompts', flag: 'prompts' },
  completions: { capability: 'completions', flag: 'completions' },
} as const satisfies Record<string, { capability: string; flag: keyof FeaturesConfig }>

/**
 * One server as other plugins reach it through the `mcpServers` service: its connection (status,
 * reconnect, disconnect) and the features beyond tools its configuration offers. A request goes
 * out only for a feature that is both configured and declared by the server ("Both parties MUST:
 * Only use capabilities that were successfully negotiated", MCP 2025-11-25 §basic/lifecycle
 * Operation); otherwise it fails at once with NOT_OFFERED and the fix.
 */
export class McpServer {
  /** The last prompt listing of a session: getPrompt checks arguments against it. */
  private prompts = new WeakMap<Session, Map<string, Record<string, unknown>>>()

  constructor(
    private readonly connection: ServerConnection,
    private readonly config: Config,
    private readonly redact: Redact,
    private readonly log: Log,
  ) {}

  get serverName(): string {
    return this.config.serverName
  }

  get status(): ConnectionState {
    return this.connection.status
  }

  /** Ends the live session and connects afresh, with a full attempt budget; resolves with the state it reached. */
  async reconnect(): Promise<ConnectionState> {
    await this.connection.reconnect()
    return this.connection.status
  }

  /** Ends the live session and stays down (tools unregistered) until reconnect() or a reload. */
  async disconnect(): Promise<void> {
    await this.connection.disconnect()
  }

  /** The `instructions` the server gave at initialize, redacted and cut at limits.maxDescriptionChars; undefined when it gave none. */
  instructions(): string | undefined {
    if (!this.config.features.instructions) throw this.off('instructions')
    const text = this.connection.live().instructions
    return typeof text === 'string' && text.length > 0 ? quoteUntrusted(text, this.config.limits.maxDescriptionChars, this.redact) : undefined
  }

  listResources(options: FeatureCallOptions = {}): Promise<Record<string, unknown>[]> {
    return this.list('resources', 'resources', options)
  }

  listResourceTemplates(options: FeatureCallOptions = {}): Promise<Record<string, unknown>[]> {
    return this.list('resources', 'templates', options)
  }

  /** The resource's contents, whole (within limits.maxResultBytes), text or base64 blob per entry. */
  async readResource(uri: string, options: FeatureCallOptions = {}): Promise<ReadResult> {
    if (typeof uri !== 'string' || uri.length === 0) throw new BridgeError('readResource needs the URI of a listed resource (a non-empty string)', 'INVALID_ARGS')
    const session = this.session('resources')
    return readResult(await session.request('resources/read', { uri }, signalOf(options)), uri, this.config.limits)
  }

  listPrompts(options: FeatureCallOptions = {}): Promise<Record<string, unknown>[]> {
    return this.list('prompts', 'prompts', options)
  }

  /** The prompt's messages, its arguments checked first against the server's listing (prompts.ts). */
  async getPrompt(name: string, args: Record<string, string> = {}, options: FeatureCallOptions = {}): Promise<PromptResult> {
    const session = this.session('prompts')
    let prompt = this.prompts.get(session)?.get(name)
    // Not listed yet, or added since: one fresh listing decides.
    if (!prompt) {
      await this.list('prompts', 'prompts', options)
      prompt = this.prompts.get(session)?.get(name)
    }
    if (!prompt) throw new BridgeError(`server "${this.serverName}" lists no prompt named "${String(name).slice(0, 80)}": listPrompts() shows the names it has`, 'INVALID_ARGS')
    const checked = checkPromptArguments(prompt, args)
    return promptResult(await session.request('prompts/get', { name, arguments: checked }, signalOf(options)), name, this.config.limits)
  }

  /** completion/complete for a prompt's or a resource template's argument. */
  async complete(ref: unknown, argument: unknown, options: FeatureCallOptions = {}): Promise<Completion> {
    const params = completionParams(ref, argument)
    const session = this.session('completions')
    return completionResult(await session.request('completion/complete', params, signalOf(options)))
  }

  private async list(feature: keyof typeof NEEDS, kind: ListKind, options: FeatureCallOptions): Promise<Record<string, unknown>[]> {
    const session = this.session(feature)
    const signal = signalOf(options)
    const { items, dropped } = await drainList(kind, (method, params) => session.request(method, params, signal), this.config.limits)
    if (dropped) this.log.warn('%d entries of the %s list of server "%s" were left out: each needs its identifier as a string of reasonable length', dropped, kind, this.serverName)
    if (kind === 'prompts') this.prompts.set(session, new Map(items.map((prompt) => [prompt.name as string, prompt])))
    return items
  }

  /** The live session, when the feature is configured and the server declared it. */
  private session(feature: keyof typeof NEEDS): Session {
    const { capability, flag } = NEEDS[feature]
    if (!this.config.features[flag]) throw this.off(flag)
    const session = this.connection.live()
    if (session.capabilities[capability] === undefined) {
      throw new BridgeError(`server "${this.serverName}" does not declare the ${capability} capability, so the bridge does not ask it for ${feature}`, 'NOT_OFFERED')
    }
    return session
  }

  private off(flag: keyof FeaturesConfig): BridgeError {
    return new BridgeError(`features.${flag} is off for server "${this.serverName}": set it to true in the instance's configuration to offer it`, 'NOT_OFFERED')
  }
}

/** The caller's signal, or one that never aborts: toolCallTimeoutMs still bounds the request. */
function signalOf(options: FeatureCallOptions): AbortSignal {
  return options.signal ?? new AbortController().signal
}
