import type { SignInRequest } from '../../src/host-contract.ts'

/**
 * A simulated person with a browser: follows the authorization URL's redirects (at most `max`)
 * with real requests, as a browser would, until the one to the bridge's loopback listener.
 * Every URL it opened is in `visited`, so a test can look for what must never appear in one.
 */
export function simulatedBrowser(max = 5) {
  const visited: string[] = []
  const signIn = async ({ url }: SignInRequest) => {
    let next = url
    for (let hop = 0; hop <= max; hop++) {
      visited.push(next)
      const answer = await fetch(next, { redirect: 'manual' })
      await answer.body?.cancel()
      const location = answer.headers.get('location')
      if (answer.status < 300 || answer.status >= 400 || !location) return
      next = new URL(location, next).href
    }
    throw new Error(`more than ${max} redirects`)
  }
  return { signIn, visited }
}
