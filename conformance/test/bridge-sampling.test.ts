import { describe, expect, it } from 'vitest'
import { bridgeAdapter } from '../src/client/bridge-adapter.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'

// The kit's hosts give the bridge an mcpSampling service from the scenario's scripted reply
// (host-asks.ts), so the bridge is judged on the sampling it really offers: at 2026-07-28 the ask
// is an inputRequests entry of an input_required result, answered in the retry's inputResponses.
const loaded = loadScenarios().find((candidate) => candidate.scenario.id === 'sampling-answered-when-configured')!

describe('the bridge answers sampling through the host mcpSampling service', () => {
  it('at 2026-07-28, with the reply the host gave, in the retry inputResponses', async () => {
    const result = await runScenario(loaded, 'stdio', bridgeAdapter, { updateSnapshots: false, era: 'modern' })
    const sent = (result.transcript?.events ?? []).flatMap((event) => (event.kind === 'message' && event.from === 'client' ? [event.message as { params?: { inputResponses?: Record<string, unknown>; _meta?: Record<string, unknown> } }] : []))
    const answered = sent.find((message) => message.params?.inputResponses !== undefined)
    expect(answered?.params?._meta?.['io.modelcontextprotocol/clientCapabilities']).toEqual({ sampling: {} })
    expect(answered?.params?.inputResponses).toEqual({ 'ask-1': { role: 'assistant', content: { type: 'text', text: 'A summary.' }, model: 'kit-model', stopReason: 'endTurn' } })
    expect(result.checks.find((check) => check.id === 'asks/sampling-result')).toMatchObject({ status: 'pass' })
    expect(result.checks.filter((check) => check.status === 'fail' || check.status === 'error')).toEqual([])
  })
})
