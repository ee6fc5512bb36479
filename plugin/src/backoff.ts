import type { ReconnectConfig } from './config.ts'

/** Pure: the wait before reconnect attempt `attempt` (1-based): initialDelayMs * 2^(n-1), capped. */
export function backoffDelay(policy: Pick<ReconnectConfig, 'initialDelayMs' | 'maxDelayMs'>, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1))
}
