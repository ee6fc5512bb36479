/**
 * How long a listing stays fresh, from the 2026-07-28 cache hints (server/utilities/caching):
 * "If ttlMs is positive, the client SHOULD consider the result fresh for that many milliseconds
 * after receiving the response"; "If ttlMs is 0, the response SHOULD be considered immediately
 * stale"; "If ttlMs is negative, clients SHOULD ignore it and treat it as 0"; "If ttlMs is absent,
 * clients SHOULD assume a default of 0 (immediately stale) and rely on their own caching
 * heuristics or notifications."
 */

/** A server cannot pin a listing for longer than a day: past it the bridge asks again. */
export const MAX_TTL_MS = 86_400_000

/**
 * Pure: the milliseconds a listing is fresh for. `ttlMs` from the result's first page. Without
 * one, the bridge's own heuristic is the notification: a server that declared `listChanged` for
 * the list tells of every change, so its listing is held until it does (Infinity); any other is
 * asked again on each access. `cacheScope` needs no handling here: each cache belongs to one
 * session of one instance, so it is never shared across authorization contexts.
 */
export function freshForMs(ttlMs: unknown, declaresListChanged: boolean): number {
  if (typeof ttlMs === 'number' && Number.isFinite(ttlMs)) return Math.min(Math.max(0, Math.floor(ttlMs)), MAX_TTL_MS)
  return declaresListChanged ? Number.POSITIVE_INFINITY : 0
}
