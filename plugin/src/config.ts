import Schema from 'schemastery'

/** Node timers overflow above this and fire after 1 ms, so every bound stops here. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,32}$/

export interface ReconnectConfig {
  enabled: boolean
  initialDelayMs: number
  maxDelayMs: number
  maxAttempts: number
}

export interface ListChangedConfig {
  /** Quiet period after the last `tools/list_changed` before re-listing. */
  debounceMs: number
  /** Upper bound on how long a continuous storm can postpone a re-sync. */
  maxWaitMs: number
}

export interface LimitsConfig {
  /** A `tools/list` cursor chain longer than this fails the sync (guards endless pagination). */
  maxPages: number
  /** More tools than this fails the sync instead of flooding the model's tool list. */
  maxTools: number
  /** Longest tool description passed through; longer ones are cut with a notice. */
  maxDescriptionChars: number
  /** Largest inputSchema (serialised JSON characters) accepted; larger tools are quarantined. */
  maxSchemaChars: number
  /** Model-facing text per result; longer output is cut with a notice of the original size. */
  maxResultTextChars: number
  /** Largest result (serialised bytes) held as the canonical value; larger ones become errors. */
  maxResultBytes: number
}

interface CommonConfig {
  serverName: string
  toolCallTimeoutMs: number
  maxTotalTimeoutMs: number
  connectTimeoutMs: number
  failOnStartupError: boolean
  reconnect: ReconnectConfig
  listChanged: ListChangedConfig
  limits: LimitsConfig
}

export interface StdioConfig extends CommonConfig {
  transport: 'stdio'
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  /** Grace period between SIGTERM and SIGKILL when the child is stopped. */
  killGraceMs: number
}

export interface StreamableHttpConfig extends CommonConfig {
  transport: 'streamable-http'
  url: string
  headers: Record<string, string>
}

export type Config = StdioConfig | StreamableHttpConfig

const delay = (fallback: number) => Schema.natural().min(1).max(MAX_TIMER_DELAY_MS).default(fallback)

const Common = Schema.object({
  serverName: Schema.string()
    .required()
    .description('Stable local namespace of this server: tools appear as mcp__<serverName>__<tool>.'),
  toolCallTimeoutMs: delay(60_000).description('Time a tools/call may take without progress.'),
  maxTotalTimeoutMs: delay(600_000).description('Hard ceiling on one call even while it reports progress.'),
  connectTimeoutMs: delay(30_000).description('Bound on initialize plus tool discovery.'),
  failOnStartupError: Schema.boolean().default(false).description('Reject activation when the first connection fails.'),
  reconnect: Schema.object({
    enabled: Schema.boolean().default(true),
    initialDelayMs: delay(500),
    maxDelayMs: delay(30_000),
    maxAttempts: Schema.natural().min(1).max(1000).default(10),
  }).default({ enabled: true, initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 }),
  listChanged: Schema.object({
    debounceMs: Schema.natural().max(60_000).default(50),
    maxWaitMs: delay(1_000),
  }).default({ debounceMs: 50, maxWaitMs: 1_000 }),
  limits: Schema.object({
    maxPages: Schema.natural().min(1).max(100_000).default(1_000),
    maxTools: Schema.natural().min(1).max(100_000).default(10_000),
    maxDescriptionChars: Schema.natural().min(1).default(8_192),
    maxSchemaChars: Schema.natural().min(2).default(262_144),
    maxResultTextChars: Schema.natural().min(1).default(100_000),
    maxResultBytes: Schema.natural().min(1024).max(512 * 1024 * 1024).default(16 * 1024 * 1024),
  }).default({
    maxPages: 1_000,
    maxTools: 10_000,
    maxDescriptionChars: 8_192,
    maxSchemaChars: 262_144,
    maxResultTextChars: 100_000,
    maxResultBytes: 16 * 1024 * 1024,
  }),
})

const Stdio = Schema.object({
  transport: Schema.const('stdio').required(),
  command: Schema.string().description('Executable that starts the server, spawned without a shell.'),
  args: Schema.array(String).default([]),
  env: Schema.dict(String).default({}).description('Added to the scrubbed parent environment; wins over it.'),
  cwd: Schema.string(),
  killGraceMs: delay(2_000).description('Wait between SIGTERM and SIGKILL on shutdown.'),
})

const StreamableHttp = Schema.object({
  transport: Schema.const('streamable-http').required(),
  url: Schema.string().role('link').description('The server endpoint, http:// or https://.'),
  headers: Schema.dict(String).default({}).description('Sent with every request; never logged.'),
})

const Shape = Schema.intersect([
  Schema.object({
    transport: Schema.union(['stdio', 'streamable-http']).required().description('How to reach the server.'),
  }),
  Schema.union([Stdio, StreamableHttp]),
  Common,
])

/**
 * The plugin's config schema. Schemastery checks types and defaults; `checkConfig` then turns
 * the cross-field rules into messages that name the field and say how to fix it.
 */
export const Config = Schema.transform(Shape, (value) => checkConfig(value as Config), true) as unknown as Schema<unknown, Config>

export function checkConfig(config: Config): Config {
  const fail = (field: string, message: string): never => {
    // A ValidationError with an empty path keeps our wording intact in Cordis' report.
    throw new Schema.ValidationError(`mcp-client config: ${field} ${message}`, { path: [] })
  }
  if (!SERVER_NAME_PATTERN.test(config.serverName)) {
    fail('serverName', `"${config.serverName}" is invalid: use 1-32 characters from A-Z a-z 0-9 _ - (for example "github").`)
  }
  if (config.transport === 'stdio') {
    if (!config.command) fail('command', 'is required with transport "stdio": set it to the executable that starts the server (for example "npx").')
  } else {
    if (!config.url) fail('url', 'is required with transport "streamable-http": set it to the endpoint (for example "http://127.0.0.1:3000/mcp").')
    let url: URL | undefined
    try {
      url = new URL(config.url)
    } catch {
      fail('url', `"${config.url}" is not a valid URL: write an absolute http:// or https:// URL.`)
    }
    if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
      fail('url', `uses "${url.protocol}": only http:// and https:// are supported.`)
    }
  }
  const { reconnect, toolCallTimeoutMs, maxTotalTimeoutMs } = config
  if (reconnect.initialDelayMs > reconnect.maxDelayMs) {
    fail('reconnect.initialDelayMs', `(${reconnect.initialDelayMs}) must not exceed reconnect.maxDelayMs (${reconnect.maxDelayMs}).`)
  }
  if (maxTotalTimeoutMs < toolCallTimeoutMs) {
    fail('maxTotalTimeoutMs', `(${maxTotalTimeoutMs}) must be at least toolCallTimeoutMs (${toolCallTimeoutMs}).`)
  }
  return config
}
