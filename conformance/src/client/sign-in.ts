import { startDeadline } from '@mcp-bridge/process'
import type { Context } from 'cordis'

/** How long the simulated browser may take, when the scenario sets no connect timeout. */
const DEFAULT_BROWSE_MS = 10_000

/**
 * The person at the browser, for the authorization-code scenarios: the bridge hands the host the
 * authorization URL (its `mcpAuth.signIn` hook); this follows it and its redirects to the bridge's
 * own loopback listener. The fixture's authorization server approves at once, so nothing is typed.
 * Bounded by the bridge's own signal and by the scenario's connect timeout; a failure is left to
 * the bridge, which times the sign-in out and says so (the URL is never logged here). Resolves
 * with the URL the redirects ended at (the bridge's callback, code included), for a test that
 * checks the code never shows; undefined when the browsing failed.
 */
export function simulatedBrowser(boundMs: number): (request: { url: string; signal: AbortSignal }) => Promise<string | undefined> {
  return async ({ url, signal }) => {
    const deadline = startDeadline(boundMs, [signal])
    try {
      const response = await fetch(url, { redirect: 'follow', signal: deadline.signal })
      await response.body?.cancel()
      return response.url
    } catch {
      // The bridge's wait for the redirect ends on its own bound; nothing to add from here.
      return undefined
    } finally {
      deadline.clear()
    }
  }
}

/**
 * Gives the host an `mcpAuth` service with the simulated browser when the scenario signs in with
 * the authorization code, as a host with a person at hand would; other scenarios keep a headless
 * host. Tokens stay in the bridge's memory (no credential store: nothing outlives the run).
 */
export function provideSignIn(ctx: Context, config: Record<string, unknown>): void {
  if ((config.auth as { type?: unknown } | undefined)?.type !== 'authorization_code') return
  const boundMs = typeof config.connectTimeoutMs === 'number' ? config.connectTimeoutMs : DEFAULT_BROWSE_MS
  ctx.provide('mcpAuth')
  ctx.set('mcpAuth', { signIn: simulatedBrowser(boundMs) })
}
