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
const TOKEN = String.raw`(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|xox[abposr]-[\w-]{10,}|sk-[\w-]{20,}|AKIA[0-9A-Z]{16})`
const JWT = String.raw`eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]+`
const SECRET_VALUE = [
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i, // scheme://user:password@host
  /^bearer\s+\S+/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  new RegExp(`^${JWT}$`),
  new RegExp(`^${TOKEN}$`),
]
/** The same shapes, found anywhere in free text, with what to put in their place. */
const SECRET_IN_TEXT: Array<[RegExp, string]> = [
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s@]+@/gi, '$1<redacted>@'],
  [/(\bbearer\s+)\S+/gi, '$1<redacted>'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '<redacted private key>'],
  [new RegExp(`\\b${JWT}`, 'g'), '<redacted>'],
  [new RegExp(`\\b${TOKEN}\\b`, 'g'), '<redacted>'],
  [/\b([A-Za-z0-9_]*(?:KEY|PASSWORD|SECRET|TOKEN)[A-Za-z0-9_]*)=\S+/gi, '$1=<redacted>'],
]

export function isSecretName(name: string): boolean {
  if (SECRET_SUBSTRING.test(name) || LOADER_HIJACK.test(name)) return true
  return name.toUpperCase().split(/[^A-Z0-9]+/).some((word) => SECRET_WORDS.has(word))
}

export function isSecretValue(value: string): boolean {
  return SECRET_VALUE.some((pattern) => pattern.test(value))
}

/**
 * Pure: `text` with every credential-shaped part replaced, for server output that is quoted in
 * errors, logs and reports (a crashing server often prints its connection string).
 */
export function redactSecrets(text: string): string {
  return SECRET_IN_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text)
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
