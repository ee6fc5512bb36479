import { errorMessage } from '@mcp-bridge/process'

// Re-exported: the plugin's modules take their error wording from here.
export { errorMessage }

/**
 * Stable string codes for failures the bridge and the reference host report. Wire errors keep
 * their JSON-RPC numeric codes inside `cause`; these codes are what callers branch on.
 */
export type BridgeErrorCode =
  | 'UNKNOWN_TOOL'
  | 'INVALID_ARGS'
  | 'TOOL_ERROR'
  | 'TOOL_TIMEOUT'
  | 'ABORTED'
  | 'SERVER_UNAVAILABLE'
  | 'UNAUTHORIZED'
  | 'INVALID_TOOL_LIST'
  | 'INVALID_RESULT'
  | 'NAME_CONFLICT'
  | 'CONNECT_TIMEOUT'
  | 'INVALID_CONFIG'
  /** A feature beyond tools that the configuration does not enable or the server did not declare (features/). */
  | 'NOT_OFFERED'

const brand = Symbol.for('mcp-bridge.error')

export class BridgeError extends Error {
  readonly [brand] = true
  constructor(
    message: string,
    readonly code: BridgeErrorCode,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'BridgeError'
  }

  /** Brand check that also works across duplicated module copies. */
  static is(value: unknown): value is BridgeError {
    return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true
  }
}
