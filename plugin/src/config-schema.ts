/**
 * The plugin's configuration, written once: every field, its default, its bounds and its
 * description are the Schemastery schemas below, and the configuration types are derived from
 * them. config.ts parses with these schemas and adds the rules that span fields; a console and
 * the docs table (plugin/test/config-schema.test.ts) read the same descriptions and defaults.
 */

import Schema from 'schemastery'
import type { AuthConfig } from './auth-config.ts'
import { FeaturesSchema, type FeaturesConfig } from './features/config.ts'
import { RootsFields } from './asks/roots.ts'
import { SamplingFields } from './asks/sampling-config.ts'

/** Node timers overflow above this and fire after 1 ms, so every bound stops here. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647

const delay = (fallback: number) => Schema.natural().min(1).max(MAX_TIMER_DELAY_MS).default(fallback)

/**
 * An absent nested object is its fields' defaults. Schemastery's `default()` asks for the whole
 * output type where an empty object suffices (its Meta says Partial), hence the cast.
 */
const filled = <S, T>(schema: Schema<S, T>): Schema<S, T> => schema.default({} as T)

/** A string field a config may leave out (its output may be undefined). */
const optionalString = () => Schema.string() as Schema<string | undefined, string | undefined>

const ReconnectFields = {
  enabled: Schema.boolean().default(true).description('Supervise the connection: reconnect with backoff after it fails.'),
  initialDelayMs: delay(500).description('First backoff delay; at most maxDelayMs.'),
  maxDelayMs: delay(30_000).description('Backoff cap, and the uptime after which the attempt budget refills.'),
  // The seed's bound: a configuration written for it must load unchanged here.
  maxAttempts: Schema.natural().min(1).max(Number.MAX_SAFE_INTEGER).default(10).description('Attempts per outage before the connection stays down.'),
}

const ListChangedFields = {
  debounceMs: Schema.natural().max(60_000).default(50).description('Quiet period after the last tools/list_changed before re-listing.'),
  maxWaitMs: delay(1_000).description('Upper bound on how long a continuous storm can postpone a re-sync.'),
}

const LimitsFields = {
  maxPages: Schema.natural().min(1).max(100_000).default(1_000).description('A tools/list cursor chain longer than this fails the sync (guards endless pagination).'),
  maxTools: Schema.natural().min(1).max(100_000).default(10_000).description("More tools than this fails the sync instead of flooding the model's tool list."),
  maxDescriptionChars: Schema.natural().min(1).default(8_192).description('Longest tool description passed through; longer ones are cut with a notice.'),
  maxSchemaChars: Schema.natural().min(2).default(262_144).description('Largest inputSchema (serialised JSON characters) accepted; larger tools are not registered.'),
  maxResultTextChars: Schema.natural().min(1).default(100_000).description('Model-facing text per result; longer output is cut with a notice of the original size.'),
  maxResultBytes: Schema.natural()
    .min(1024)
    .max(512 * 1024 * 1024)
    .default(16 * 1024 * 1024)
    .description('Largest result (serialised bytes) held; a larger one becomes an error of that call.'),
}

const ToolFilterFields = {
  include: Schema.array(String).default([]).description('Only these raw tool names (or * globs) are bridged; empty means all.'),
  exclude: Schema.array(String).default([]).description('These raw tool names (or * globs) are never bridged; wins over include.'),
}

const CommonFields = {
  serverName: Schema.string()
    .required()
    .description('Stable local namespace of this server: tools appear as mcp__<serverName>__<tool>.'),
  toolCallTimeoutMs: delay(60_000).description('Time a tools/call may take without an answer or progress.'),
  maxTotalTimeoutMs: delay(600_000).description('Hard ceiling on one call even while it reports progress.'),
  connectTimeoutMs: delay(30_000).description('Bound on initialize plus tool discovery.'),
  failOnStartupError: Schema.boolean().default(false).description('Reject activation when the first connection fails.'),
  preferTaskCalls: Schema.boolean().default(false).description('Call tools that allow task-based execution as tasks (tools that require it always are).'),
  reconnect: filled(Schema.object(ReconnectFields)).description('Reconnection after the connection fails.'),
  listChanged: filled(Schema.object(ListChangedFields)).description('Re-listing after the server says its tools changed.'),
  limits: filled(Schema.object(LimitsFields)).description("Bounds on what the server's tools and results may hold."),
  tools: filled(Schema.object(ToolFilterFields)).description("Which of the server's tools are bridged; by default all of them."),
  features: FeaturesSchema,
  ...RootsFields,
  ...SamplingFields,
}

export const StdioFields = {
  transport: Schema.const('stdio').required().description('Start the server as a child process and speak over its stdin and stdout.'),
  command: Schema.string().description('Executable that starts the server, spawned without a shell.'),
  args: Schema.array(String).default([]).description('Arguments after the command.'),
  env: Schema.dict(String).default({}).description('Set for the child on top of what it inherits; wins over it.'),
  inheritEnv: Schema.array(String)
    .default([])
    .description('Host variables passed on (names or * globs); the child otherwise gets only HOME, LOGNAME, PATH, SHELL, TERM, USER.'),
  cwd: optionalString().description("Working directory of the child; by default the host's."),
  killGraceMs: delay(2_000).description('Wait between SIGTERM and SIGKILL on shutdown.'),
}

/** Every field any auth type has; config.ts's checkAuth keeps each type to its own. */
const AuthFields = {
  type: optionalString().description('client_credentials, private_key_jwt, bearer or authorization_code.'),
  clientId: optionalString().description("The client's registered id (the grants; optional with authorization_code, where it is a pre-registered client)."),
  clientSecretEnv: optionalString().description('Name of the host variable that holds the client secret (client_credentials; a confidential pre-registered client with authorization_code).'),
  clientMetadataUrl: optionalString().description('With authorization_code, the https URL of the Client ID Metadata Document the bridge is identified by where the server supports it.'),
  privateKeyEnv: optionalString().description('Name of the host variable that holds the PEM private key (private_key_jwt).'),
  algorithm: optionalString().description('The JWS algorithm of the private_key_jwt assertion (RS256 when unset).'),
  tokenEnv: optionalString().description('Name of the host variable that holds the token sent with each request (bearer).'),
  issuer: optionalString().description('The authorization server the credentials were registered with; they are never presented to another (optional with authorization_code).'),
  scope: optionalString().description("Scopes to ask for (space-separated); otherwise what the server's metadata says."),
}

const SseFields = {
  transport: Schema.const('sse').required().description('The legacy 2024-11-05 HTTP+SSE transport.'),
  url: Schema.string().role('link').description('The legacy SSE endpoint (the GET stream), http:// or https://.'),
  headers: Schema.dict(String).default({}).description('Sent with every request; never logged.'),
  auth: Schema.object(AuthFields).description('OAuth client credentials, a private-key JWT, a token from the environment, or a sign-in (authorization code).'),
}

export const HttpFields = {
  ...SseFields,
  transport: Schema.const('streamable-http').required().description('Streamable HTTP.'),
  url: Schema.string().role('link').description('The server endpoint, http:// or https://.'),
  sseFallback: Schema.boolean().default(false).description('Try legacy HTTP+SSE when the server refuses the initialize POST.'),
}

export const StdioSchema = Schema.object({ ...StdioFields, ...CommonFields }).description('A server started as a child process.')
export const StreamableHttpSchema = Schema.object({ ...HttpFields, ...CommonFields }).description('A server reached over Streamable HTTP.')
export const SseSchema = Schema.object({ ...SseFields, ...CommonFields }).description('A server reached over legacy HTTP+SSE.')

type Output<S> = Schemastery.TypeT<S>
/**
 * A field dict's parsed type: a field whose output may be undefined is an optional key. Read from
 * the fields rather than Schemastery's object output, which adds an index signature (any key).
 */
type Fields<D> = Flat<
  { -readonly [K in keyof D as undefined extends Output<D[K]> ? never : K]: Output<D[K]> } & {
    -readonly [K in keyof D as undefined extends Output<D[K]> ? K : never]?: Exclude<Output<D[K]>, undefined>
  }
>
type Flat<T> = { [K in keyof T]: T[K] }

export type ReconnectConfig = Fields<typeof ReconnectFields>
export type ListChangedConfig = Fields<typeof ListChangedFields>
export type LimitsConfig = Fields<typeof LimitsFields>
export type ToolFilterConfig = Fields<typeof ToolFilterFields>

/** The fields every transport has; the nested objects by their own field dicts. */
type CommonConfig = Flat<
  Omit<Fields<typeof CommonFields>, 'reconnect' | 'listChanged' | 'limits' | 'tools' | 'features'> & {
    reconnect: ReconnectConfig
    listChanged: ListChangedConfig
    limits: LimitsConfig
    tools: ToolFilterConfig
    features: FeaturesConfig
  }
>

/** The auth fields become an AuthConfig of one type (config.ts's checkAuth); absent means none. */
type WithAuth<T> = Flat<Omit<T, 'auth'> & { auth?: AuthConfig }>

export type StdioConfig = Flat<Fields<typeof StdioFields> & CommonConfig>
export type StreamableHttpConfig = WithAuth<Fields<typeof HttpFields> & CommonConfig>
/** The 2024-11-05 HTTP+SSE transport, for servers that speak nothing newer. */
export type SseConfig = WithAuth<Fields<typeof SseFields> & CommonConfig>
/** The transports that reach a server over HTTP. */
export type HttpConfig = StreamableHttpConfig | SseConfig
export type Config = StdioConfig | HttpConfig
