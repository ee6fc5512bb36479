/**
 * Pure: the Bearer challenge of a WWW-Authenticate header (RFC 6750 §3, RFC 9110 §11.6.1) and its
 * parameters. Lenient on purpose: the kit reads what a client would, and judges what it finds.
 */
export interface BearerChallenge {
  /** Parameter names lower-cased; quoted values unescaped. */
  params: Record<string, string>
}

const PARAM = /([A-Za-z0-9_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/g

/** The first Bearer challenge of `header`, or undefined when it names no Bearer scheme. */
export function bearerChallenge(header: string | undefined): BearerChallenge | undefined {
  if (header === undefined) return undefined
  const start = /(?:^|,)\s*Bearer(?=\s|,|$)/i.exec(header)
  if (!start) return undefined
  const rest = header.slice(start.index + start[0].length)
  // The next scheme's challenge (`, Basic realm=…`) ends this one.
  const next = /,\s*[A-Za-z0-9_.-]+\s+[A-Za-z0-9_.-]+\s*=/.exec(rest)
  const own = next ? rest.slice(0, next.index) : rest
  const params: Record<string, string> = {}
  for (const match of own.matchAll(PARAM)) {
    const name = match[1]!.toLowerCase()
    if (!(name in params)) params[name] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!
  }
  return { params }
}

/** The space-separated scopes of a `scope` value. */
export function scopesOf(value: string | undefined): string[] {
  return (value ?? '').split(' ').filter(Boolean)
}
