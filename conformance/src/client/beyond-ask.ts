import type { BeyondAsk } from './adapter.ts'
import type { BeyondExpect } from './beyond-checks.ts'
import type { ScenarioStep } from './scenario.ts'

/** A step beyond tools (scenario.ts BeyondSteps). */
export type BeyondStep = Extract<
  ScenarioStep,
  { listResources: unknown } | { listTemplates: unknown } | { readResource: unknown } | { listPrompts: unknown } | { getPrompt: unknown } | { complete: unknown } | { subscribe: unknown } | { unsubscribe: unknown } | { resourceUpdates: unknown } | { serverInstructions: unknown }
>

/** Pure: the driver verb a step asks, with what the step expects of its answer. */
export function beyondAsk(step: BeyondStep): { ask: BeyondAsk; expect?: BeyondExpect } {
  if ('listResources' in step) return { ask: { op: 'resources' }, expect: step.listResources.expect }
  if ('listTemplates' in step) return { ask: { op: 'templates' }, expect: step.listTemplates.expect }
  if ('readResource' in step) return { ask: { op: 'read', uri: step.readResource.uri }, expect: step.readResource.expect }
  if ('listPrompts' in step) return { ask: { op: 'prompts' }, expect: step.listPrompts.expect }
  if ('subscribe' in step) return { ask: { op: 'subscribe', uri: step.subscribe.uri }, expect: step.subscribe.expect }
  if ('unsubscribe' in step) return { ask: { op: 'unsubscribe', uri: step.unsubscribe.uri }, expect: step.unsubscribe.expect }
  if ('resourceUpdates' in step) return { ask: { op: 'updates' }, expect: step.resourceUpdates.expect }
  if ('serverInstructions' in step) return { ask: { op: 'instructions' }, expect: step.serverInstructions.expect }
  if ('getPrompt' in step) return { ask: { op: 'prompt', name: step.getPrompt.name, args: step.getPrompt.args }, expect: step.getPrompt.expect }
  const { ref, argument, expect } = step.complete
  return { ask: { op: 'complete', ref, argument }, expect }
}

