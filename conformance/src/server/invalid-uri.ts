/**
 * Pure: "Servers MUST validate all resource URIs" (server/resources, Security Considerations, every
 * revision), read from outside: resources/read of a string that no URI can be must not be served.
 * Shared by the legacy check (evaluate/invalid-uri.ts) and the modern one (modern/probes.ts).
 */
import { describeOutcome, type RpcOutcome } from './wire/types.ts'

/** No scheme and raw spaces: RFC 3986 allows neither, as a URI nor as a relative reference. */
export const INVALID_URI = 'not a uri'

export const VALIDATE_URIS = 'Servers MUST validate all resource URIs'

export type InvalidUriVerdict = { kind: 'refused'; how: string } | { kind: 'served' } | { kind: 'unanswered'; how: string }

/** Any JSON-RPC error refuses it (the sentence names no code); a result, whatever it holds, serves it. */
export function invalidUriVerdict(outcome: RpcOutcome): InvalidUriVerdict {
  if (outcome.kind === 'result') return { kind: 'served' }
  if (outcome.kind === 'timeout' || outcome.kind === 'closed') return { kind: 'unanswered', how: describeOutcome(outcome) }
  return { kind: 'refused', how: describeOutcome(outcome) }
}
