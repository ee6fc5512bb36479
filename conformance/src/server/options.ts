import type { CheckResult } from '../model.ts'
import type { ToolCall } from './probe/tools.ts'
import type { ModernRevision, Revision } from './spec.ts'

export interface ServerRunOptions {
  /** Bound on every request after initialize. */
  requestTimeoutMs: number
  /** Bound on initialize (a cold `npx` start can be slow). */
  startupTimeoutMs: number
  /** How long a stdio server gets to exit after stdin closes (and after SIGTERM). */
  exitGraceMs: number
  /** Tools the user allows the kit to call, with their arguments. */
  calls: ToolCall[]
  /** serverName used for the bridge projection (default: derived from serverInfo.name). */
  serverName?: string
  /**
   * The one revision the run judges (`--spec-version`; default: ask for the newest the kit knows
   * and follow a counter-offer). Given, the run is pinned: a server that offers another revision,
   * or refuses this one, gets its version-negotiation verdict and the run ends after initialize,
   * as a client of only this revision disconnects. The suite is `server@<revision>` and carries
   * `revision`, so runs of several revisions sit side by side in one report and baseline.
   */
  revision?: Revision | ModernRevision
  onCheck?: (check: CheckResult) => void
}


/** The server run's defaults, apart from the runner so the CLI can quote them without loading it. */
export const DEFAULT_SERVER_OPTIONS: ServerRunOptions = { requestTimeoutMs: 10_000, startupTimeoutMs: 30_000, exitGraceMs: 5_000, calls: [] }
