import { createPublicKey, verify, type KeyObject } from 'node:crypto'

/** The assertion type of RFC 7523 §2.2 (a JWT as client authentication). */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

/**
 * Verifies a private_key_jwt client assertion (RFC 7523 §3): signed by the key the behaviour
 * names (RS256, or ES256 whose JWS signature is the raw r||s pair), issued by and about the
 * client, addressed to this authorization server, and not expired. Pure apart from the clock.
 */
export function verifyClientAssertion(jwt: string, publicKeyPem: string, clientId: string, audiences: string[], now = Date.now()): boolean {
  const [head, body, signature] = jwt.split('.')
  if (!head || !body || !signature) return false
  const header = decode(head) as { alg?: unknown } | undefined
  const claims = decode(body) as { iss?: unknown; sub?: unknown; aud?: unknown; exp?: unknown } | undefined
  if (!header || !claims) return false
  let key: KeyObject
  try {
    key = createPublicKey(publicKeyPem)
  } catch {
    return false
  }
  const signed = Buffer.from(`${head}.${body}`)
  const bytes = Buffer.from(signature, 'base64url')
  const valid =
    header.alg === 'RS256'
      ? verify('RSA-SHA256', signed, key, bytes)
      : header.alg === 'ES256'
        ? verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, bytes)
        : false
  if (!valid) return false
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  return claims.iss === clientId && claims.sub === clientId && aud.some((a) => typeof a === 'string' && audiences.includes(a)) && typeof claims.exp === 'number' && claims.exp * 1000 > now
}

function decode(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString())
  } catch {
    return undefined
  }
}
