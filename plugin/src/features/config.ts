import Schema from 'schemastery'

/** The levels of MCP 2025-11-25 §server/utilities/logging, from the most verbose (RFC 5424's order). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * What the instance offers beyond tools. Every field is off by default, so a tools-only
 * configuration behaves, and loads, as it did before these features existed.
 */
export const FeatureFields = {
  resources: Schema.boolean()
    .default(false)
    .description(
      'Offer the server\'s resources and resource templates (list, read, subscribe) through the mcpServers service; lists are held as the server\'s ttlMs or list_changed allow, and re-synced on list_changed.',
    ),
  resourceTools: Schema.boolean()
    .default(false)
    .description(
      'Offer the model two tools for a server that declares resources, mcp__<server>__list_resources (optional cursor) and mcp__<server>__read_resource (uri), with results bounded like tool results; while on, a server tool named list_resources or read_resource is left out.',
    ),
  prompts: Schema.boolean().default(false).description('Offer the server\'s prompts (list, and get with argument checks) through the mcpServers service; the list is re-synced on list_changed.'),
  completions: Schema.boolean().default(false).description('Offer completion/complete for prompt and resource-template arguments through the mcpServers service.'),
  instructions: Schema.boolean().default(false).description('Offer the server\'s initialize instructions, bounded and redacted, through the mcpServers service.'),
  logLevel: Schema.union([Schema.const('off'), ...LOG_LEVELS.map((level) => Schema.const(level))])
    .default('off')
    .description('Server log messages at this level and above go to the host log (off: none are asked for or shown).'),
  maxSubscriptions: Schema.natural()
    .min(1)
    .max(10_000)
    .default(100)
    .description('Resource URIs one server may have subscriptions for at once (subscribe() refuses more); needs resources and a server that declares resources.subscribe.'),
  maxLogLinesPerMinute: Schema.natural().min(1).max(100_000).default(60).description('Server log messages shown per minute; the rest are counted and summed up in one line.'),
}

export interface FeaturesConfig {
  resources: boolean
  resourceTools: boolean
  prompts: boolean
  completions: boolean
  instructions: boolean
  logLevel: 'off' | LogLevel
  maxSubscriptions: number
  maxLogLinesPerMinute: number
}

/** The features group as the plugin's schema nests it (config-schema.ts). */
export const FeaturesSchema = Schema.object(FeatureFields).default({} as FeaturesConfig).description('What the instance offers beyond tools; all off by default.')

/** Whether the configuration asks for anything beyond tools. */
export function anyFeature(features: FeaturesConfig | undefined): boolean {
  return features !== undefined && (features.resources || features.prompts || features.completions || features.instructions || features.logLevel !== 'off')
}

