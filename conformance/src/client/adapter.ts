import type { BeyondRequest } from './driver/protocol.ts'

/**
 * What the runner needs of a client under test. Small on purpose: another client (an SDK-based
 * bridge, a naive one with known bugs) can be judged by implementing these few members.
 */

export type ServerTarget =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { transport: 'http'; url: string }

export interface ToolView {
  /** The model-facing name. */
  name: string
  /** The MCP name it stands for (the adapter knows its own mapping). */
  rawName: string
  description: string
  parameters: Record<string, unknown>
}

export interface CallOutcome {
  isError: boolean
  code?: string
  /** Model-facing content, as the client renders it. */
  content: Array<{ type: 'text'; text: string } | { type: 'image'; ref: string }>
  /** The canonical value programmatic callers get (success only). */
  value?: unknown
  /** Set when the call never returned within the kit's bound (a driven client): why. */
  unanswered?: string
  /** How long the call took, as the kit measured it. */
  ms?: number
}

/** A verb beyond tools (driver/protocol.ts BeyondRequest), without its id. */
export type BeyondAsk = BeyondRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never

/** What the client answered a verb beyond tools: its result as its user gets it, or why not. */
export type BeyondOutcome =
  | { ok: true; value: Record<string, unknown>; ms: number }
  | { ok: false; error: string; ms?: number; unsupported?: boolean; unanswered?: string }

export type ModelRoute = { provider: string; model: string } | undefined

export interface ClientSession {
  tools(): ToolView[]
  /** Called after every change of the tool list; returns the unsubscribe function. */
  onToolsChange(listener: () => void): () => void
  call(publicName: string, args: Record<string, unknown>, options: { signal?: AbortSignal; route?: ModelRoute }): Promise<CallOutcome>
  /** connecting | connected | reconnecting | stopped */
  state(): string
  logs(): string[]
  /** Process ids of server children the client currently owns. */
  pids(): number[]
  /** Files the client stored as attachments. */
  attachmentCount(): number
  /** What a driven client declared it does (`listChanged`, `reconnect`); bridges do everything. */
  features?(): string[]
  /** Resources, prompts and completions (the driver protocol's beyond verbs); absent when the client offers none of them. */
  ask?(request: BeyondAsk): Promise<BeyondOutcome>
  /** Server processes still alive once the client said it had closed (judged before the driver ends). */
  orphans?(): number[]
  /** A driven client: lines its driver wrote that break the driver protocol (a harness problem, not a verdict). */
  protocolViolations?(): string[]
  dispose(): Promise<void>
  /**
   * How long the client's own close took, when `dispose` does more than close it (a driver: the
   * kit then waits for its servers and its process to end, and those waits are not the client's).
   */
  closeMs?(): number | undefined
  /** False when the client had not closed by the time the kit stopped waiting (`closeMs` is then that wait). */
  closeFinished?(): boolean
  /** A driven client: its driver never answered `connect` within the kit's bound. */
  connectUnanswered?(): boolean
  /** A driven client: processes of its driver's tree still running after the driver ended (the runner stops them). */
  leftovers?(): number[]
}

export interface ClientAdapter {
  name: string
  /**
   * bridge (the default): a bridge with a naming contract like ours, judged on every expectation.
   * client: any MCP client, judged only on what holds for every client (applicability.ts).
   */
  kind?: 'bridge' | 'client'
  /** Routes the adapter's model catalogue knows: `vision` accepts images, `text-only` does not. */
  routes: { vision: ModelRoute; 'text-only': ModelRoute }
  start(target: ServerTarget, config: Record<string, unknown>): Promise<ClientSession>
  /** Registers a foreign tool under this public name in the client's host, as another plugin would. */
  registerForeign?(session: ClientSession, publicName: string): Promise<void>
  /** Loads a second client with the same configuration: whether it was refused, and the error it raised. */
  rejectsDuplicate?(session: ClientSession, target: ServerTarget, config: Record<string, unknown>): Promise<{ rejected: boolean; message?: string }>
}
