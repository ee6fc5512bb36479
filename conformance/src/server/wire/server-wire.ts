/**
 * What the server runners (run.ts and modern/) ask of a connection beyond requests and
 * notifications. Each transport answers for itself, so no runner asks which class it holds: a
 * capability a transport lacks is simply absent.
 *
 * StdioWire and HttpWire satisfy this structurally (checked where run.ts opens them) rather than
 * by `implements`, which would tie this module and theirs into an import circle.
 */
import type { HttpWire } from './http.ts'
import type { Ledger } from './ledger.ts'
import type { StdioShutdown, StdioWire } from './stdio.ts'
import type { Wire } from './types.ts'

export interface ServerWire extends Wire {
  /** Every message the connection carried, for the envelope rules judged over a whole run. */
  readonly ledger: Ledger
  /**
   * Ends the connection, idempotently. A stdio server's process is ended by the spec's sequence
   * within `graceMs`, and how it ended is returned to be judged; an HTTP session is closed.
   */
  end(graceMs: number): Promise<StdioShutdown | undefined>
  /** The server process behind a stdio connection (its output and stderr, judged at the end). */
  readonly stdio?: StdioWire
  /** The HTTP side of the connection (target, headers, posts), which the HTTP probes read. */
  readonly http?: HttpWire
}
