import { driverAsks, withoutHostAsks } from './client-asks.ts'

/** What offering a service needs of a Cordis context (the reference host's and the harness's alike). */
interface ServiceHost {
  provide(name: string): void
  set(name: string, value: unknown): void
}

/** A scripted CreateMessageResult as the plugin's `mcpSampling` reply (plugin/src/asks/contract.ts SamplingReply). */
function samplingReply(answer: Record<string, unknown>): { text: string; model: string; stopReason?: string } {
  const content = answer.content as { text?: unknown } | undefined
  return {
    text: typeof content?.text === 'string' ? content.text : '',
    model: typeof answer.model === 'string' ? answer.model : 'kit-model',
    ...(typeof answer.stopReason === 'string' && { stopReason: answer.stopReason }),
  }
}

/**
 * Sets a host up as the scenario scripts its person: an `mcpElicitation` service answering every
 * ask with the scenario's answer, and an `mcpSampling` service answering every sampling request
 * with the scenario's reply, when it has them. Returns the bridge's own config, the host's keys
 * left out, so that every host that runs the bridge (bridge-adapter.ts, dsh-adapter.ts) offers the
 * same asks. Sampling also needs the plugin's own switch (`sampling.enabled`, plugin/README.md
 * "Asks from the server"), turned on here with the default caps, so that the bridge is judged on
 * the sampling it really offers; a scenario that scripts no reply leaves it off.
 */
export function offerScenarioAsks(ctx: ServiceHost, config: Record<string, unknown>): Record<string, unknown> {
  const asks = driverAsks(config)
  const own = withoutHostAsks(config)
  if (asks?.elicitation) {
    const elicitation = asks.elicitation
    ctx.provide('mcpElicitation')
    ctx.set('mcpElicitation', { modes: elicitation.modes ?? ['form'], elicit: async () => elicitation.answer })
  }
  if (asks?.sampling) {
    const reply = samplingReply(asks.sampling.answer)
    ctx.provide('mcpSampling')
    ctx.set('mcpSampling', { createMessage: async () => reply })
    own.sampling = { enabled: true }
  }
  return own
}
