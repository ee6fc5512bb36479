/**
 * A bridged definition under the calling conventions of the harness' ToolRuntime
 * (`@deepseek-ai/dsh-tools`), which differ from the reference registry's: `render(args, value)`,
 * a frozen deep copy of the result handed to `finalizeContent`, the calling agent on the execution
 * instead of a route, and `llm.resolveModelInfo(provider, model, signal)`. The real ToolRuntime
 * runs the same definitions under Node 22 in test/dsh/drop-in.test.ts; this file pins the
 * definition's side of each contract under the Node the rest of the suite uses.
 */
import { describe, expect, it } from 'vitest'
import { PlannedTool } from '../src/definition.ts'
import type { BridgedTool } from '../src/discovery.ts'
import type { ContentBlock, ImageRef, ToolExecution, ToolResult } from '../src/index.ts'
import { isInSchemaSubset } from '../src/schema-subset.ts'
import { PNG } from './support/scripted-server.ts'

const tool: BridgedTool = {
  rawName: 'snap',
  publicName: 'mcp__cam__snap',
  description: 'takes a picture',
  inputSchema: { type: 'object', properties: { zoom: { type: 'number' } }, additionalProperties: false },
  outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'number' } } },
}
const answer = { content: [{ type: 'text', text: 'here' }, { type: 'image', data: PNG, mimeType: 'image/png' }], structuredContent: { n: 1 } }

/** Stand-ins with the harness' shapes: an AttachmentStore's saveImages and LlmRuntime's positional resolveModelInfo. */
function services(modalities: string[]) {
  const saved: unknown[] = []
  const asked: unknown[][] = []
  return {
    saved,
    asked,
    imageServices: () => ({
      attachments: {
        async saveImages(batch: Array<{ data: Uint8Array; mediaType: string }>): Promise<ImageRef[]> {
          saved.push(...batch)
          return batch.map((image, i) => ({ attachmentId: `att-${i}`, mediaType: image.mediaType, bytes: image.data.byteLength }))
        },
      },
      llm: {
        async resolveModelInfo(provider: string, model: string, signal?: AbortSignal) {
          asked.push([provider, model, signal])
          return { inputModalities: modalities }
        },
      },
    }),
  }
}

function definitionWith(modalities: string[]) {
  const s = services(modalities)
  const sent: unknown[] = []
  const definition = new PlannedTool(tool, {
    serverName: 'cam',
    invoke: async (_raw, args) => (sent.push(args), structuredClone(answer)),
    limits: { maxResultTextChars: 10_000, maxResultBytes: 1 << 20 },
    imageServices: s.imageServices,
    warn: () => {},
  }).create()
  return { definition, sent, ...s }
}

/** An execution as ToolRuntime makes it: an agent, no route. */
function agentExec(model: string): ToolExecution {
  const agent = { options: { provider: 'deepseek', model }, session: { requestHeader: () => undefined } }
  return { callId: 'call-1', name: tool.publicName, arguments: {}, signal: new AbortController().signal, agent } as unknown as ToolExecution
}

/** What ToolRuntime hands finalizeContent: a materialized, deep-frozen copy of the result. */
function materialized(result: ToolResult): ToolResult {
  const copy = JSON.parse(JSON.stringify(result)) as ToolResult
  const freeze = (v: unknown): void => {
    if (typeof v === 'object' && v !== null) Object.values(v).forEach(freeze)
    Object.freeze(v)
  }
  freeze(copy)
  return copy
}

const output = (definition: ReturnType<typeof definitionWith>['definition']) =>
  definition.output as unknown as { schema: Record<string, unknown>; render(...input: unknown[]): ContentBlock[] }

describe('a bridged definition in a host shaped like the harness ToolRuntime', () => {
  it('declares output.schema in the subset, with the outputSchema minus its $schema', () => {
    const { schema } = output(definitionWith([]).definition)
    expect(isInSchemaSubset(schema)).toBe(true)
    expect((schema.properties as Record<string, unknown>).structuredContent).toEqual({ type: 'object', properties: { n: { type: 'number' } } })
  })

  it('renders the same content for render(args, value) and render(value)', () => {
    const { render } = output(definitionWith([]).definition)
    const twoArgs = render({ q: 'ignored' }, answer)
    expect(twoArgs).toEqual(render(answer))
    expect(twoArgs).toEqual([{ type: 'text', text: 'here\n[image unavailable: image/png; this result was not admitted to model context; the raw image remains available to programmatic callers]' }])
  })

  it("admits images for the agent's model through a positional llm, and finalizes a frozen copy by value", async () => {
    const { definition, saved, asked } = definitionWith(['text', 'image'])
    const exec = agentExec('vision')
    const value = await definition.execute({}, exec)
    expect(asked).toEqual([['deepseek', 'vision', exec.signal]])
    expect(saved).toHaveLength(1)
    const result = materialized({ isError: false, value, content: output(definition).render(exec.arguments, value) })
    expect(definition.finalizeContent?.(exec, result)).toEqual([
      { type: 'text', text: 'here' },
      { type: 'image', attachment: { attachmentId: 'att-0', mediaType: 'image/png', bytes: Buffer.from(PNG, 'base64').byteLength } },
    ])
  })

  it("keeps the refusal reason for a text-only model (the copy's content still matches)", async () => {
    const { definition, saved } = definitionWith(['text'])
    const exec = agentExec('chat')
    const value = await definition.execute({}, exec)
    const finalized = definition.finalizeContent?.(exec, materialized({ isError: false, value, content: output(definition).render(exec.arguments, value) }))
    expect(saved).toEqual([])
    expect(finalized).toEqual([{ type: 'text', text: expect.stringContaining('model "deepseek/chat" does not declare image input') }])
  })

  it('lets a policy that replaced the value or the content win', async () => {
    for (const replace of ['value', 'content'] as const) {
      const { definition } = definitionWith(['text', 'image'])
      const exec = agentExec('vision')
      const value = await definition.execute({}, exec)
      const result = { isError: false as const, value, content: output(definition).render(exec.arguments, value) }
      if (replace === 'value') result.value = { content: [{ type: 'text', text: 'redacted by policy' }] }
      else result.content = [{ type: 'text', text: 'redacted by policy' }]
      expect(definition.finalizeContent?.(exec, materialized(result)), replace).toBeUndefined()
    }
  })

  it('refuses arguments its inputSchema does not accept before anything is sent (ToolRuntime does not check them)', async () => {
    const { definition, sent } = definitionWith(['text'])
    await expect(definition.execute({ zoom: 'far' }, agentExec('chat'))).rejects.toMatchObject({ code: 'INVALID_ARGS', message: expect.stringContaining('invalid arguments for "mcp__cam__snap"') })
    await expect(definition.execute({ flash: true }, agentExec('chat'))).rejects.toMatchObject({ code: 'INVALID_ARGS' })
    expect(sent).toEqual([])
    await definition.execute({ zoom: 2 }, agentExec('chat'))
    expect(sent).toEqual([{ zoom: 2 }])
  })
})
