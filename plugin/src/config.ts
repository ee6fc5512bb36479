import Schema from 'schemastery'
import { unknownKey, type KeyTree } from './config-keys.ts'
import { INHERIT_PATTERN, LOADER_HIJACK } from './env.ts'
import { configSecrets, createRedactor, isRecord, type Redact, redactUrl } from '@mcp-bridge/process'
import { AUTH_TYPES, secretVariable, type AuthConfig } from './auth-config.ts'
import { rootsProblem } from './asks/roots.ts'
import {
  HttpFields,
  SseSchema,
  StdioFields,
  StdioSchema,
  StreamableHttpSchema,
  type Config as ConfigType,
  type HttpConfig,
  type StdioConfig,
  type ToolFilterConfig,
} from './config-schema.ts'

export { MAX_TIMER_DELAY_MS, type HttpConfig, type LimitsConfig, type ListChangedConfig, type ReconnectConfig, type SseConfig, type StdioConfig, type StreamableHttpConfig, type ToolFilterConfig } from './config-schema.ts'

/** A parsed configuration: the type derived from the schemas (config-schema.ts). */
export type Config = ConfigType

export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,32}$/
/**
 * Server names that would make `mcp__<serverName>__<rawName>` ambiguous between servers. Without
 * "__" and a trailing "_", the serverName is everything up to the first "__" after `mcp__`, so
 * every public name (hashed ones keep that prefix whole: naming.ts) belongs to one server alone.
 */
const AMBIGUOUS_SERVER_NAME = /__|_$/

/** Longest filter entry: raw tool names are at most 128 characters, plus room for `*`s. */
export const MAX_TOOL_FILTER_ENTRY_CHARS = 256

const TRANSPORTS = ['stdio', 'streamable-http', 'sse'] as const
const STDIO_ONLY = Object.keys(StdioFields).filter((key) => key !== 'transport')
const HTTP_ONLY = Object.keys(HttpFields).filter((key) => key !== 'transport')

/** Every key each transport knows, nested objects included (env and headers take any key). */
function keyTree(fields: Record<string, Schema>): KeyTree {
  const tree: KeyTree = {}
  for (const [key, schema] of Object.entries(fields)) tree[key] = schema.type === 'object' && schema.dict ? keyTree(schema.dict) : true
  return tree
}
const KNOWN = {
  stdio: keyTree(StdioSchema.dict!),
  'streamable-http': keyTree(StreamableHttpSchema.dict!),
  sse: keyTree(SseSchema.dict!),
}
const ELSEWHERE = {
  stdio: Object.fromEntries(HTTP_ONLY.map((key) => [key, 'streamable-http'])),
  'streamable-http': Object.fromEntries(STDIO_ONLY.map((key) => [key, 'stdio'])),
  sse: { ...Object.fromEntries(STDIO_ONLY.map((key) => [key, 'stdio'])), sseFallback: 'streamable-http' },
}

/**
 * The plugin's config schema. The transport is read first, so that every other field is checked
 * against that transport's fields alone: a wrong value names its field instead of listing both
 * transports' schemas, and a key neither knows (a typo, a field of the other transport) is an
 * error that suggests the nearest known key. `checkConfig` then applies the cross-field rules.
 * Messages never quote a value that could be a secret: every quoted value passes the redactor of
 * `messageRedactor` first, which knows the secrets configured so far.
 */
export const Config: Schema<unknown, Config> = Schema.transform(
  // The hidden `any` comes first and takes every value, so parsing is parseConfig's alone (its
  // order and wording above); a console lists the transports' schemas after it, with their fields'
  // descriptions and defaults (consoles skip hidden choices and show a transform's inner schema).
  Schema.union([Schema.any().hidden(), StdioSchema, StreamableHttpSchema, SseSchema]),
  (raw: unknown) => parseConfig(raw),
  true,
)

const fail = (field: string, message: string, path: readonly (string | number)[] = fieldPath(field)): never => {
  // Constructed with an empty path, so the message is our wording without schemastery's "$.field "
  // prefix (what a code host shows); the path is set afterwards, for Standard Schema consumers
  // such as the cordis.yml loader, which name the field from it.
  const error = new Schema.ValidationError(`mcp-client config: ${field ? `${field} ` : ''}${message}`, { path: [] })
  error.options.path = [...path]
  throw error
}

/** `tools.include[0]` to `['tools', 'include', 0]`; `(the whole config)` and `` to `[]`. */
export function fieldPath(field: string): (string | number)[] {
  if (!field || field.startsWith('(')) return []
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) => (index === undefined ? key! : Number(index)))
}

export function parseConfig(raw: unknown): Config {
  const redact = messageRedactor(raw)
  if (!isRecord(raw)) fail('(the whole config)', `must be an object with transport and serverName (got ${describeValue(raw, redact)}).`)
  const transport = (raw as Record<string, unknown>).transport
  if (transport === undefined) {
    throw new Schema.ValidationError('missing required value: set transport to "stdio" or "streamable-http"', { path: ['transport'] })
  }
  if (!TRANSPORTS.includes(transport as never)) fail('transport', `expected "stdio" | "streamable-http" | "sse" (got ${describeValue(transport, redact)}).`)
  const kind = transport as Config['transport']
  refuseInlineSecrets((raw as Record<string, unknown>).auth)
  const unknown = unknownKey(raw, KNOWN[kind], ELSEWHERE[kind])
  // The message quotes the key as written: a key can hold a pasted value too.
  if (unknown) fail('', redact(unknown.message), unknown.path)
  let parsed: Config
  try {
    parsed = (kind === 'stdio' ? StdioSchema : kind === 'sse' ? SseSchema : StreamableHttpSchema)(raw as never) as Config
  } catch (error) {
    throw Schema.ValidationError.is(error) ? withoutValue(error, raw, redact) : error
  }
  return checkConfig(parsed, redact)
}

/**
 * The redaction of a value a config error quotes: the secret shapes, plus every secret known at
 * that point, so that a secret interpolated into a bad value (`serverName: "${TOKEN}"`, a URL
 * built around one) is never shown: the config's own env and header values (each one, secret-named
 * or not: an error may quote any of them), its URL's credentials, the host variable its auth names,
 * and the host's variables that look like secrets (a cordis.yml interpolates from there). Built
 * once per parse, on first use: a valid config pays nothing.
 */
export function messageRedactor(raw: unknown, env: NodeJS.ProcessEnv = process.env): Redact {
  let redact: Redact | undefined
  return (text) => {
    redact ??= createRedactor(knownSecrets(raw, env))
    return redact(text)
  }
}

function knownSecrets(raw: unknown, env: NodeJS.ProcessEnv): string[] {
  const config = isRecord(raw) ? raw : {}
  const strings = (value: unknown): Record<string, string> =>
    isRecord(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {}
  const auth = isRecord(config.auth) ? config.auth : {}
  const variables = ['clientSecretEnv', 'privateKeyEnv', 'tokenEnv'].map((key) => auth[key]).filter((name): name is string => typeof name === 'string')
  return [
    ...configSecrets({ headers: strings(config.headers), url: typeof config.url === 'string' ? config.url : undefined }),
    ...Object.values(strings(config.headers)),
    ...Object.values(strings(config.env)),
    ...variables.flatMap((name) => env[name] ?? []),
    ...configSecrets({ env: strings(env) }),
  ]
}

/** Schemastery says "... but got <the value>"; the value may be a secret, so say its kind instead. */
function withoutValue(error: InstanceType<typeof Schema.ValidationError>, raw: unknown, redact: Redact): Error {
  const path = (error.options.path ?? []).map(String)
  const value = path.reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined), raw)
  // The constructor puts the "$.path " prefix back.
  const message = error.message.replace(/^\$(\.\S+)? /, '').replace(/ but got [\s\S]*$/, '')
  // YAML reads `PORT: 3000` as a number and `DEBUG: true` as a boolean: say how to write the string.
  const quote = message === 'expected string' && (typeof value === 'number' || typeof value === 'boolean') ? `: quote it: "${String(value)}"` : ''
  return new Schema.ValidationError(`${message} (got ${describeValue(value, redact)})${quote}`, error.options)
}

/**
 * Numbers and booleans as they are; a string only when it is short and `redact` leaves it whole
 * (no secret shape, no known secret in it), otherwise only its length.
 */
export function describeValue(value: unknown, redact: Redact = messageRedactor(undefined)): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value)
  if (typeof value === 'string') return value.length <= 40 && redact(value) === value ? JSON.stringify(value) : `a string of ${value.length} characters`
  return Array.isArray(value) ? 'a list' : 'an object'
}

/** A variable name as written when `redact` leaves it whole, else only its length (describeValue, unquoted). */
function describeName(name: string, redact: Redact): string {
  return redact(name) === name ? name : `a name of ${name.length} characters`
}

/** Secrets written into the file would end up in repositories and backups: only their variables' names belong there. */
function refuseInlineSecrets(auth: unknown): void {
  if (typeof auth !== 'object' || auth === null) return
  const inline = { clientSecret: 'clientSecretEnv', privateKey: 'privateKeyEnv', token: 'tokenEnv' } as const
  for (const [key, instead] of Object.entries(inline)) {
    if (key in auth) fail(`auth.${key}`, `is never read from the configuration: put the secret in an environment variable of the host and set auth.${instead} to its name.`)
  }
}

export function checkConfig(config: Config, redact: Redact = messageRedactor(config)): Config {
  if (!SERVER_NAME_PATTERN.test(config.serverName)) {
    fail('serverName', `${describeValue(config.serverName, redact)} is invalid: use 1-32 characters from A-Z a-z 0-9 _ - (for example "github").`)
  }
  if (AMBIGUOUS_SERVER_NAME.test(config.serverName)) {
    const suggestion = config.serverName.replace(/_+/g, '_').replace(/_+$/, '') || 'github'
    fail(
      'serverName',
      `${describeValue(config.serverName, redact)} is invalid: it may not contain "__" or end with "_", or two servers' tools could share a public name (server "a" with tool "b__c" and server "a__b" with tool "c" are both mcp__a__b__c); use "${suggestion}", say.`,
    )
  }
  if (config.transport === 'stdio') checkStdio(config, redact)
  else {
    checkHttp(config, redact)
    // Schemastery fills an absent object with its (here: no) defaults: no key set means no auth.
    const auth = config.auth as unknown as Record<string, string | undefined> | undefined
    if (auth && Object.values(auth).some((value) => value !== undefined)) config.auth = checkAuth(auth, config.headers, redact)
    else delete config.auth
  }
  checkToolFilter(config.tools)
  const roots = rootsProblem(config.roots)
  if (roots) fail(roots.field, roots.message)
  const { reconnect, toolCallTimeoutMs, maxTotalTimeoutMs } = config
  if (reconnect.initialDelayMs > reconnect.maxDelayMs) {
    fail('reconnect.initialDelayMs', `(${reconnect.initialDelayMs}) must not exceed reconnect.maxDelayMs (${reconnect.maxDelayMs}).`)
  }
  if (maxTotalTimeoutMs < toolCallTimeoutMs) {
    fail('maxTotalTimeoutMs', `(${maxTotalTimeoutMs}) must be at least toolCallTimeoutMs (${toolCallTimeoutMs}).`)
  }
  return config
}

function checkToolFilter(filter: ToolFilterConfig): void {
  for (const field of ['include', 'exclude'] as const) {
    for (const [index, entry] of filter[field].entries()) {
      if (entry.length === 0 || entry.length > MAX_TOOL_FILTER_ENTRY_CHARS) {
        fail(`tools.${field}[${index}]`, `must be a raw tool name or a * glob of 1-${MAX_TOOL_FILTER_ENTRY_CHARS} characters (for example "read_*").`)
      }
    }
  }
}

function checkStdio(config: StdioConfig, redact: Redact): void {
  if (!config.command) fail('command', 'is required with transport "stdio": set it to the executable that starts the server (for example "npx").')
  for (const [index, entry] of config.inheritEnv.entries()) {
    if (!INHERIT_PATTERN.test(entry)) fail(`inheritEnv[${index}]`, `${describeValue(entry, redact)} is not a variable name or a * glob of one (for example "LANG" or "LC_*").`)
    if (!entry.includes('*') && LOADER_HIJACK.test(entry)) {
      fail(`inheritEnv[${index}]`, `${describeName(entry, redact)} is never inherited (it can hijack the server's loader): set it in env if the server needs it.`)
    }
  }
}

const AUTH_FIELDS: Record<AuthConfig['type'], { required: string[]; optional: string[] }> = {
  client_credentials: { required: ['clientId', 'clientSecretEnv', 'issuer'], optional: ['scope'] },
  private_key_jwt: { required: ['clientId', 'privateKeyEnv', 'issuer'], optional: ['scope', 'algorithm'] },
  bearer: { required: ['tokenEnv'], optional: [] },
  authorization_code: { required: [], optional: ['clientId', 'clientSecretEnv', 'clientMetadataUrl', 'issuer', 'scope'] },
}

/**
 * `auth` as its type needs it. `issuer` is required for the grants because the SDK would
 * otherwise present the credentials to whichever authorization server the MCP server names, so
 * a hostile server could collect them. The secret's variable must be set when the config loads:
 * an unset one would fail every connection attempt the same way.
 */
function checkAuth(auth: Record<string, string | undefined>, headers: Record<string, string>, redact: Redact): AuthConfig {
  const type = auth.type
  if (!AUTH_TYPES.includes(type as never)) fail('auth.type', `expected ${AUTH_TYPES.map((t) => `"${t}"`).join(' | ')} (got ${describeValue(type, redact)}).`)
  const fields = AUTH_FIELDS[type as AuthConfig['type']]
  for (const key of Object.keys(auth)) {
    if (key !== 'type' && auth[key] !== undefined && !fields.required.includes(key) && !fields.optional.includes(key)) {
      fail(`auth.${key}`, `does not apply to auth.type "${type}": remove it.`)
    }
  }
  for (const key of fields.required) if (!auth[key]) fail(`auth.${key}`, `is required with auth.type "${type}".`)
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
    fail('auth', 'and headers.Authorization both set credentials; keep one of them.')
  }
  const config = (type === 'private_key_jwt' ? { algorithm: 'RS256', ...definedOnly(auth) } : definedOnly(auth)) as unknown as AuthConfig
  const variable = secretVariable(config)
  if (variable) {
    const { field, name } = variable
    if (!INHERIT_PATTERN.test(name) || name.includes('*')) fail(`auth.${field}`, `${describeValue(name, redact)} is not an environment variable name (for example "MCP_CLIENT_SECRET").`)
    if (!process.env[name]) fail(`auth.${field}`, `names ${describeName(name, redact)}, which is not set in the host's environment: export it before starting the host.`)
  }
  if (type === 'authorization_code') checkCodeAuth(auth, redact)
  if (type !== 'bearer' && (type !== 'authorization_code' || auth.issuer)) {
    let issuer: URL | undefined
    try {
      issuer = new URL(auth.issuer!)
    } catch {
      fail('auth.issuer', `${describeValue(auth.issuer, redact)} is not a URL: set it to the authorization server's issuer (for example "https://auth.example.com").`)
    }
    // Credentials travel to it: https, or plain http only to this machine.
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer!.hostname)
    if (issuer!.protocol !== 'https:' && !(issuer!.protocol === 'http:' && loopback)) {
      fail('auth.issuer', `must be an https:// URL (plain http:// only for 127.0.0.1, localhost or [::1]): the client's credentials are sent there.`)
    }
  }
  return config
}

/**
 * The authorization-code fields that depend on each other. A Client ID Metadata Document URL "MUST
 * use the "https" scheme and contain a path component" (MCP 2025-11-25 §basic/authorization).
 */
function checkCodeAuth(auth: Record<string, string | undefined>, redact: Redact): void {
  if (auth.clientSecretEnv && !auth.clientId) fail('auth.clientSecretEnv', 'needs auth.clientId, the pre-registered client the secret belongs to.')
  if (auth.clientMetadataUrl === undefined) return
  let url: URL | undefined
  try {
    url = new URL(auth.clientMetadataUrl)
  } catch {
    // Reported below.
  }
  if (url?.protocol !== 'https:' || url.pathname === '/') {
    fail('auth.clientMetadataUrl', `${describeValue(auth.clientMetadataUrl, redact)} must be an https:// URL with a path (for example "https://example.com/mcp-bridge.json"): it is the client id.`)
  }
}

function definedOnly(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined))
}

function checkHttp(config: HttpConfig, redact: Redact): void {
  if (!config.url) fail('url', `is required with transport "${config.transport}": set it to the endpoint (for example "http://127.0.0.1:3000/mcp").`)
  let url: URL | undefined
  try {
    url = new URL(config.url)
  } catch {
    fail('url', `${describeValue(config.url, redact)} is not a valid URL: write an absolute http:// or https:// URL.`)
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
    // The scheme as written, not URL's lower-cased copy: a secret's shape (AKIA…) is case-sensitive.
    fail('url', `uses ${describeValue(config.url.trimStart().slice(0, url.protocol.length), redact)}: only http:// and https:// are supported (${redact(redactUrl(config.url)).slice(0, 200)}).`)
  }
  for (const [name, value] of Object.entries(config.headers)) {
    // fetch would refuse these on every request, and the bridge would retry them forever.
    try {
      new Headers([[name, 'x']])
    } catch {
      fail('headers', `has an invalid header name ${describeValue(name, redact)}: use letters, digits and - only.`)
    }
    try {
      new Headers([[name, value]])
    } catch {
      fail(`headers.${name}`, 'has an invalid value (a line break or a control character): fix the value where it is set.')
    }
    // A template of a variable that is not set (`Bearer ${process.env.TOKEN}`) writes "undefined":
    // the server would refuse it, and the bridge would say only that the credentials were refused.
    if (/(?:^|[\s:=])undefined$/.test(value)) {
      fail(`headers.${name}`, `ends in "undefined", which is what a template of an unset variable writes: set the variable before starting the host (or use an auth of type bearer with tokenEnv, which checks it).`)
    }
  }
}
