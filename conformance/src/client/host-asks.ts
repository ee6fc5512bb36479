import { driverAsks, withoutHostAsks } from './client-asks.ts'

/** What offering a service needs of a Cordis context (the reference host's and the harness's alike). */
interface ServiceHost {
  provide(name: string): void
  set(name: string, value: unknown): void
}

/**
 * Sets a host up as the scenario scripts its person: an `mcpElicitation` service answering every
 * ask with the scenario's answer, when it has one. Returns the bridge's own config, the host's
 * keys left out, so that every host that runs the bridge (bridge-adapter.ts, dsh-adapter.ts)
 * offers the same asks.
 */
export function offerScenarioAsks(ctx: ServiceHost, config: Record<string, unknown>): Record<string, unknown> {
  const elicitation = driverAsks(config)?.elicitation
  if (elicitation) {
    ctx.provide('mcpElicitation')
    ctx.set('mcpElicitation', { modes: elicitation.modes ?? ['form'], elicit: async () => elicitation.answer })
  }
  return withoutHostAsks(config)
}
