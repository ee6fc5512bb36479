/** Every server check the kit knows, grouped by area: the source of the docs' checks table. */
import type { CheckDef } from './types.ts'
import { AUTH_CHECKS } from './auth.ts'
import { BRIDGE_CHECKS } from './bridge.ts'
import { FEATURE_CHECKS } from './features.ts'
import { LIFECYCLE_CHECKS } from './lifecycle.ts'
import { MESSAGE_CHECKS } from './messages.ts'
import { NOTIFICATION_CHECKS } from './notifications.ts'
import { TASK_CHECKS } from './tasks.ts'
import { TOOL_CHECKS } from './tools.ts'
import { TRANSPORT_CHECKS } from './transports.ts'

export type { CheckDef, Keyword, Rule } from './types.ts'
export { breachStatus, cite, inForce, ruleFor } from './types.ts'

export const CHECKS: readonly CheckDef[] = [...LIFECYCLE_CHECKS, ...MESSAGE_CHECKS, ...NOTIFICATION_CHECKS, ...TOOL_CHECKS, ...BRIDGE_CHECKS, ...FEATURE_CHECKS, ...TASK_CHECKS, ...TRANSPORT_CHECKS, ...AUTH_CHECKS]

/** The definition behind a reported check id (`tools/call/echo` → `tools/call/{name}`). */
export function definitionOf(id: string): CheckDef | undefined {
  const exact = CHECKS.find((def) => def.id === id)
  if (exact) return exact
  // Longest pattern first: `tools/call/x/structured-content` must not be taken for a call of "x/structured-content".
  const patterns = CHECKS.filter((def) => def.id.includes('{name}')).sort((a, b) => b.id.length - a.id.length)
  return patterns.find((def) => {
    const [head = '', tail = ''] = def.id.split('{name}')
    return id.startsWith(head) && id.endsWith(tail) && id.length > head.length + tail.length
  })
}
