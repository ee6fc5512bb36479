import type { ServerRunOptions } from './run.ts'

/** The server run's defaults, apart from the runner so the CLI can quote them without loading it. */
export const DEFAULT_SERVER_OPTIONS: ServerRunOptions = { requestTimeoutMs: 10_000, startupTimeoutMs: 30_000, exitGraceMs: 5_000, calls: [] }
