/**
 * Pure: whether a resource URI with a custom scheme is written as RFC 3986 allows (its scheme,
 * and only unreserved, reserved and percent-encoded characters after it). The resources page
 * binds custom schemes only; its common ones (https, file, git) and http are not judged here.
 */

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/
const COMMON = new Set(['https', 'http', 'file', 'git'])
/** One character RFC 3986 allows after the scheme: unreserved, reserved, or the start of a %XX. */
const ALLOWED = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/

export type UriVerdict = { judged: false } | { judged: true; problem?: string }

export function customUriVerdict(uri: string): UriVerdict {
  const scheme = SCHEME.exec(uri)?.[1]
  if (scheme === undefined || COMMON.has(scheme.toLowerCase())) return { judged: false }
  const rest = uri.slice(scheme.length + 1)
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!
    if (!ALLOWED.test(c)) return { judged: true, problem: `it has ${JSON.stringify(c)} at position ${scheme.length + 1 + i}, a character RFC 3986 allows only percent-encoded` }
    if (c === '%' && !/^%[0-9A-Fa-f]{2}/.test(rest.slice(i, i + 3))) return { judged: true, problem: `its "%" at position ${scheme.length + 1 + i} starts no percent-encoding (two hex digits)` }
  }
  return { judged: true }
}
