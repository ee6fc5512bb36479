import type { ServerTarget } from './adapter.ts'

/**
 * Pure: the scenario's client config with references to the run's fixture filled in. An HTTP
 * fixture listens on a port chosen at run time, so a setting that must name it (OAuth's `issuer`:
 * the authorization server the credentials are registered with, here the fixture's own origin)
 * says `{fixture.origin}` or `{fixture.url}` in the scenario. Over stdio there is nothing to fill in.
 */
export function resolveTargetRefs(config: Record<string, unknown>, target: ServerTarget): Record<string, unknown> {
  if (target.transport !== 'http') return config
  const refs: Record<string, string> = { '{fixture.origin}': new URL(target.url).origin, '{fixture.url}': target.url }
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/\{fixture\.(origin|url)\}/g, (ref) => refs[ref]!)
    if (Array.isArray(value)) return value.map(fill)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item)]))
    return value
  }
  return fill(config) as Record<string, unknown>
}
