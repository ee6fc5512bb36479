/**
 * Pure: the fixture behaviours the benchmarks run against, and the list a storm must end on.
 */
import type { BehaviourInput } from '@mcp-bridge/fixtures-server'

type ToolInput = NonNullable<BehaviourInput['tools']>[number]

/** One plain tool whose default result echoes the call's arguments as JSON text. */
export const ECHO: BehaviourInput = {
  name: 'bench-echo',
  tools: [
    {
      name: 'echo',
      description: 'Echoes its arguments',
      inputSchema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'number' } }, required: ['text'] },
    },
  ],
}

/** The size of the large result the per-call benchmark times: 100 KB of text. */
export const LARGE_RESULT_CHARS = 100_000

/**
 * ECHO and a tool whose every answer is one text block of LARGE_RESULT_CHARS ASCII characters, a
 * literal (a generated text would cost the fixture more per call than the client's work).
 * Within `limits.maxResultTextChars`' default (100,000), so the model sees it whole.
 */
export const ECHO_AND_LARGE: BehaviourInput = {
  name: 'bench-echo-large',
  tools: [
    ...ECHO.tools!,
    { name: 'large', description: 'Answers 100 KB of text', result: { content: [{ type: 'text', text: 'lorem ipsum dolor sit amet, '.repeat(Math.ceil(LARGE_RESULT_CHARS / 28)).slice(0, LARGE_RESULT_CHARS) }] } },
  ],
}

/** `count` realistic small tools: a description and a one-property schema each. */
export function manyTools(count: number, prefix = 'tool'): ToolInput[] {
  const width = String(count).length
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}_${String(i).padStart(width, '0')}`,
    description: `Benchmark tool number ${i}: looks something up`,
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'what to look up' } }, required: ['query'] },
  }))
}

export function discoveryBehaviour(count: number, pageSize: number): BehaviourInput {
  return { name: 'bench-discovery', tools: manyTools(count), pagination: { pageSize } }
}

export interface StormSpec {
  baseTools: number
  notifications: number
  intervalMs: number
  /** Wait after the first client initialized, so the first sync is over before the storm. */
  afterMs: number
}

/**
 * A list_changed storm whose every notification changes the list: notification k adds `gen_k`;
 * from k = 2 on, the previous `gen_(k-1)` is renamed to `kept_(k-1)` when k-1 is a multiple of
 * 10, removed otherwise; every 50th also removes one base tool. The final list only exists once
 * the last step has landed (it holds `gen_<last>`), so "converged" cannot happen early.
 */
export function stormSteps(spec: StormSpec): Array<{ at: number; add?: ToolInput[]; remove?: string[]; rename?: Array<{ from: string; to: string }> }> {
  const steps = []
  for (let k = 1; k <= spec.notifications; k++) {
    const step: { at: number; add?: ToolInput[]; remove?: string[]; rename?: Array<{ from: string; to: string }> } = {
      at: k,
      add: [{ name: `gen_${k}` }],
    }
    const remove: string[] = []
    if (k > 1 && (k - 1) % 10 === 0) step.rename = [{ from: `gen_${k - 1}`, to: `kept_${k - 1}` }]
    else if (k > 1) remove.push(`gen_${k - 1}`)
    if (k % 50 === 0 && k / 50 <= spec.baseTools) remove.push(baseName(k / 50 - 1, spec.baseTools))
    if (remove.length) step.remove = remove
    steps.push(step)
  }
  return steps
}

export function stormBehaviour(spec: StormSpec): BehaviourInput {
  return {
    name: 'bench-storm',
    tools: manyTools(spec.baseTools, 'base'),
    listChanged: { afterMs: spec.afterMs, count: spec.notifications, intervalMs: spec.intervalMs, steps: stormSteps(spec) },
  }
}

/** The raw names the storm ends on, by replaying the steps the way the fixture applies them. */
export function stormFinalNames(spec: StormSpec): string[] {
  let names = manyTools(spec.baseTools, 'base').map((tool) => tool.name)
  for (const step of stormSteps(spec)) {
    names = names.filter((name) => !(step.remove ?? []).includes(name))
    for (const { from, to } of step.rename ?? []) names = names.map((name) => (name === from ? to : name))
    names.push(...(step.add ?? []).map((tool) => tool.name))
  }
  return names
}

function baseName(index: number, count: number): string {
  return manyTools(count, 'base')[index]!.name
}

/** A small server for the fan-out: a handful of tools. */
export function fanoutBehaviour(index: number, tools = 5): BehaviourInput {
  return { name: `bench-fan-${index}`, tools: manyTools(tools) }
}
