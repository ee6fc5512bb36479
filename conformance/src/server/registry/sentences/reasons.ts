/**
 * Pure: why a server-binding keyword sentence has no check. Every reason but `not-yet` says why
 * the sentence cannot be judged from outside the server; `not-yet` says it could be and is not,
 * and is counted apart so the coverage table never passes it off as out of reach.
 */
export interface Reason {
  kind: 'not judgeable' | 'not yet judged' | 'not yet reviewed'
  /** One line for the docs' coverage table. */
  text: string
}

export const REASONS = {
  'no-oracle': {
    kind: 'not judgeable',
    text: 'no oracle: what it asks (security practice, what is stored, logged or rate-limited, a relevance order, secure randomness) cannot be told from the messages a server sends',
  },
  'client-role': {
    kind: 'not judgeable',
    text: 'binds the server only in a role it takes toward a client that declared sampling, elicitation, roots or tasks, or that consumes what the client sends; the kit’s client declares none and sends no such thing',
  },
  'needs-event': {
    kind: 'not judgeable',
    text: 'needs an event inside the server the kit cannot bring about (a list that changes, an internal or configuration error)',
  },
  'needs-credentials': {
    kind: 'not judgeable',
    text: 'needs an authorization server, tokens or a third-party grant the kit does not hold: the kit does not run OAuth flows',
  },
  documentation: {
    kind: 'not judgeable',
    text: 'asks for documentation or a deployment choice, not a behaviour on the wire',
  },
  umbrella: {
    kind: 'not judgeable',
    text: 'states no behaviour of its own: it requires following other documents or the page’s other sentences, which are accounted for one by one',
  },
  'other-transport': {
    kind: 'not judgeable',
    text: 'about a custom transport; the kit speaks stdio and Streamable HTTP only',
  },
  'allowed-change': {
    kind: 'not judgeable',
    text: 'forbids a change the sentence also allows from another cause (a list may change over time): a difference the kit sees cannot be told to be the forbidden one',
  },
  lookalike: {
    kind: 'not judgeable',
    text: 'governs a behaviour that looks on the wire like another the same page allows (a server MAY close an SSE stream at any time): what the kit sees cannot be told to be the case the sentence is about',
  },
  'needs-held-request': {
    kind: 'not judgeable',
    text: 'needs a request the server is known to keep in progress (to cancel it, or to drop its connection, while it runs); no request every server offers does, and one that finishes quickly races the cancellation, so what arrives would depend on scheduling, not on the server',
  },
  'not-yet': {
    kind: 'not yet judged',
    text: 'judgeable from outside, but no check judges it yet',
  },
  unreviewed: {
    kind: 'not yet reviewed',
    text: 'a sentence of a newly extracted revision that no check judges and whose wording no earlier revision states: whether it can be judged from outside is still to be decided',
  },
} as const satisfies Record<string, Reason>

export type ReasonKey = keyof typeof REASONS

export function isReason(value: unknown): value is ReasonKey {
  return typeof value === 'string' && Object.hasOwn(REASONS, value)
}
