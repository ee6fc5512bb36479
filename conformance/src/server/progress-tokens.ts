/**
 * Pure: the progressTokens the kit sends, in one place, so a verdict can tell the kit's own tokens
 * apart: those of the plain --call requests (probe/tools.ts) and those of the tasks it creates
 * (probe/tasks.ts), each unique within a run.
 */
const CALL_PREFIX = 'mcp-conformance-call-'

/** The token of the n-th plain --call (1-based). */
export const callProgressToken = (n: number) => `${CALL_PREFIX}${n}`

/** The token of the n-th task the kit creates (1-based). */
export const taskProgressToken = (n: number) => `mcp-conformance-task-progress-${n}`

/** Whether a token is one the kit gave a plain --call (progress late for it is notifications/progress's to judge). */
export const isCallProgressToken = (token: unknown) => typeof token === 'string' && token.startsWith(CALL_PREFIX)
