/** Every server check the kit knows, in report order: the source of the docs' checks table. */
import type { CheckDef } from './types.ts'
import * as bridge from './bridge.ts'
import * as features from './features.ts'
import * as lifecycle from './lifecycle.ts'
import * as messages from './messages.ts'
import * as tools from './tools.ts'
import * as transports from './transports.ts'

export type { CheckDef, Keyword, Rule } from './types.ts'
export { breachStatus, cite, inForce, ruleFor } from './types.ts'

export const CHECKS: readonly CheckDef[] = [
  ...Object.values(lifecycle),
  ...Object.values(messages),
  ...Object.values(tools),
  ...Object.values(bridge),
  ...Object.values(features),
  ...Object.values(transports),
]

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
