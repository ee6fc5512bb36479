/**
 * What a scenario's client is set up to answer when its server asks (`client.roots`,
 * `client.elicitation`, `client.sampling`), in the driver protocol's words (FORMAT.md
 * §Driver protocol, `asks`). `roots` is also the bridge's own config field; the other two are the
 * host's: for the bridge, an `mcpElicitation` and an `mcpSampling` service (host-asks.ts).
 * Pure.
 */
export interface DriverAsks {
  /** Declare roots and list these. */
  roots?: Array<{ uri: string; name?: string }>
  /** Declare elicitation in these modes (absent: form) and answer every ask with `answer`. */
  elicitation?: { modes?: Array<'form' | 'url'>; answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } }
  /** Declare sampling and answer every ask with `answer` (a CreateMessageResult). */
  sampling?: { answer: Record<string, unknown> }
}

/** The scenario keys that are a host's, not a bridge config field. */
export const HOST_ASK_KEYS = ['elicitation', 'sampling'] as const

export function driverAsks(config: Record<string, unknown>): DriverAsks | undefined {
  const asks: DriverAsks = {}
  if (Array.isArray(config.roots) && config.roots.length) asks.roots = config.roots as DriverAsks['roots']
  if (typeof config.elicitation === 'object' && config.elicitation !== null) asks.elicitation = config.elicitation as DriverAsks['elicitation']
  if (typeof config.sampling === 'object' && config.sampling !== null) asks.sampling = config.sampling as DriverAsks['sampling']
  return Object.keys(asks).length ? asks : undefined
}

/** The scenario's client config less the host's keys: what the bridge itself is configured with. */
export function withoutHostAsks(config: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...config }
  for (const key of HOST_ASK_KEYS) delete rest[key]
  return rest
}
