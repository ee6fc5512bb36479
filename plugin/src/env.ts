/**
 * The environment a stdio server is started with: the parent's, minus anything that looks like a
 * credential or can hijack the child's loader, then the instance's explicit `env` on top.
 *
 * A name is dropped when it contains KEY, PASSWORD, SECRET or TOKEN anywhere (the seed's rule), or
 * when one of its `_`-separated words is a credential word (PASS, PASSWD, PWD is not one: it is the
 * working directory; AUTH, CREDENTIAL(S), COOKIE, PAT, PRIVATE, SESSION, DSN, SIGNATURE). A value is
 * dropped when it is shaped like a credential whatever its name: a URL carrying a password, a bearer
 * token, a private key, a JWT, or a well-known token prefix (GitHub, Slack, OpenAI-style, AWS).
 */
const SECRET_SUBSTRING = /KEY|PASSWORD|SECRET|TOKEN/i
const SECRET_WORDS = new Set([
  'PASS', 'PASSWD', 'AUTH', 'CREDENTIAL', 'CREDENTIALS', 'COOKIE', 'COOKIES', 'PAT', 'PRIVATE', 'SESSION', 'DSN', 'SIGNATURE',
])
const LOADER_HIJACK = /^(NODE_OPTIONS|LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|DYLD_.*)$/i
const SECRET_VALUE = [
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i, // scheme://user:password@host
  /^bearer\s+\S+/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /^eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]+$/, // JWT
  /^(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|xox[abposr]-[\w-]{10,}|sk-[\w-]{20,}|AKIA[0-9A-Z]{16})$/,
]

export function isSecretName(name: string): boolean {
  if (SECRET_SUBSTRING.test(name) || LOADER_HIJACK.test(name)) return true
  return name.toUpperCase().split(/[^A-Z0-9]+/).some((word) => SECRET_WORDS.has(word))
}

export function isSecretValue(value: string): boolean {
  return SECRET_VALUE.some((pattern) => pattern.test(value))
}

/** Pure: `parent` is usually `process.env`; `explicit` always wins and is never scrubbed. */
export function childEnvironment(
  parent: Record<string, string | undefined>,
  explicit: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isSecretName(name) || isSecretValue(value)) continue
    env[name] = value
  }
  return { ...env, ...explicit }
}
