/**
 * Secret canaries for the leak suite (canary.test.ts). Each is a realistic secret of one shape,
 * with a marker (`Cnry05`...) that survives JSON, XML and HTML escaping, so that a leak is found
 * even when only part of the secret got out.
 */

export interface Canary {
  id: string
  value: string
  marker: string
  /** How a leaky server prints it (a bare token, or NAME=value when only its name gives it away). */
  echo: string
}

const canary = (id: string, marker: string, value: string, echo = value): Canary => ({ id, value, marker, echo })

/** Secrets of known shapes, planted in the host environment and echoed by hostile servers. */
export const SHAPED: Canary[] = [
  canary('aws-access-key-id', 'CNRY01', 'AKIACNRY01ABCDEFGHIJ'),
  canary('aws-secret-access-key', 'cnry02', 'wJalrXUtnFEMIK7MDENGbPxRfiCYcnry02EXAMPLEKEY', 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYcnry02EXAMPLEKEY'),
  canary('database-url-userinfo', 'Cnry03pw', 'postgres://app:Cnry03pw@db.internal:5432/prod'),
  canary('database-url-query', 'Cnry04pw', 'mysql://db.internal/app?user=app&password=Cnry04pw'),
  canary('github-token', 'Cnry05', 'ghp_Cnry05abcdefghijklmnopqrstuvwxyz1234'),
  canary('github-fine-grained', 'Cnry06', 'github_pat_11Cnry06_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ'),
  canary('npm-token', 'Cnry07', 'npm_Cnry07abcdefghijklmnopqrstuvwxyz12'),
  canary('slack-bot-token', 'Cnry08', 'xoxb-1234567890-Cnry08abcdefghij'),
  canary('slack-webhook', 'Cnry09', 'https://hooks.slack.com/services/T0000CNRY/B0000CNRY/Cnry09xxxxxxxxxxxxxxxxxx'),
  canary('hugging-face', 'Cnry10', 'hf_Cnry10abcdefghijklmnopqrstuvw'),
  canary('openai-key', 'Cnry11', 'sk-proj-Cnry11abcdefghijklmnopqrstuvwx'),
  canary('anthropic-key', 'Cnry12', 'sk-ant-api03-Cnry12abcdefghijklmnopqrstuvwxyz-AA'),
  canary('stripe-live-key', 'Cnry13', 'sk_live_Cnry13abcdefghijklmnop'),
  canary('google-api-key', 'Cnry14', 'AIzaSyCnry14abcdefghijklmnopqrstuvwxyz0'),
  canary('jwt', 'Cnry15', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJDbnJ5MTUifQ.Cnry15signatureAbcdef'),
  canary('pem-private-key', 'Cnry16', '-----BEGIN PRIVATE KEY-----\nMIIEvQCnry16AgEAMA0GCSqGSIb3DQEBAQUAA4\n-----END PRIVATE KEY-----'),
]

/** Secrets only the configuration knows: a header, URL user-info and query, an explicit env value. */
export const HEADER = canary('header', 'cnry17', 'Bearer cnry17-configured-header-credential')
export const URL_PASSWORD = canary('url-password', 'Cnry18pass', 'Cnry18pass')
export const URL_QUERY = canary('url-query-token', 'Cnry19query', 'Cnry19querytoken')
export const ENV_VALUE = canary('env-value', 'Cnry20', 'Cnry20EnvValue')
export const CONFIGURED = [HEADER, URL_PASSWORD, URL_QUERY, ENV_VALUE]

/** Every spelling a canary could leak in: the value, its marker, and the Basic credential a URL password becomes. */
function needles(c: Canary): string[] {
  const extra = c === URL_PASSWORD ? [Buffer.from(`kit:${c.value}`).toString('base64')] : []
  return [c.value, c.marker, ...extra]
}

/** The canaries found in `text`, by id. */
export function canariesIn(text: string, among: Canary[] = [...SHAPED, ...CONFIGURED]): string[] {
  return among.filter((c) => needles(c).some((needle) => text.includes(needle))).map((c) => c.id)
}

/** What a hostile server says: every shaped canary, bare and in the framings servers use. */
export function leakLines(extra: string[] = []): string[] {
  return [
    ...SHAPED.map((c) => `leak ${c.id}: ${c.echo.replace(/\n/g, '\\n')}`),
    `json: ${JSON.stringify(Object.fromEntries(SHAPED.slice(0, 4).map((c) => [`${c.id.replace(/-/g, '_')}_secret`, c.value])))}`,
    `argv: server --password ${SHAPED[2]!.marker} --token=${SHAPED[4]!.value}`,
    SHAPED[15]!.value,
    ...extra,
  ]
}

/** The host environment the suite plants: each shaped canary under a secret-looking and an innocent name. */
export function hostEnvironment(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [i, c] of SHAPED.entries()) {
    env[`CANARY_${c.id.toUpperCase().replace(/-/g, '_')}_TOKEN`] = c.value
    env[`BUILD_NOTE_${i}`] = c.value
  }
  return env
}
