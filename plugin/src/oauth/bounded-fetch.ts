/**
 * `fetchFn` with every request also ended by `signal`: the one deadline of a grant (auth-renewal.ts)
 * bounds each request of it, whatever signal the request brings of its own. The bytes are bounded
 * by `fetchFn` itself (http-transport.ts builds it with response-limits.ts).
 */
export function fetchUnder(fetchFn: typeof fetch, signal: AbortSignal): typeof fetch {
  return (input, init) => fetchFn(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal })
}
