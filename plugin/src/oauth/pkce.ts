import { createHash, randomBytes } from 'node:crypto'

/**
 * PKCE (RFC 7636) with S256, the only method used: "MCP clients MUST use the `S256` code challenge
 * method when technically capable" (MCP 2025-11-25 §basic/authorization). 32 random bytes give
 * a 43-character verifier, the shortest RFC 7636 §4.1 allows, with 256 bits of entropy.
 */
export interface Pkce {
  verifier: string
  challenge: string
}

export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: s256(verifier) }
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}

/** An unguessable `state` (RFC 6749 §10.12) for one authorization request. */
export function newState(): string {
  return randomBytes(16).toString('base64url')
}
