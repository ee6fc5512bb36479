/**
 * Sampling inside the DeepSeek harness (issue 39): hosts/dsh/sampling-host.mjs runs, under Node 22
 * in a temp project where the pinned harness stack and the plugin's tarball are installed, a
 * harness root whose `mcpSampling` service is hosts/dsh/support/sampling.mjs over dsh-llm's
 * LlmRuntime (`ctx.llm.stream`). server-everything's trigger-sampling-request tool, called through
 * dsh-tools' ToolRuntime, asks the bridge for a completion; only the model adapter behind
 * LlmRuntime is scripted (the harness' real adapters need a provider key). Without
 * `sampling.enabled`, or without a model service, no capability is declared and server-everything
 * does not list the tool. The kit's fixture asks what server-everything does not (an assistant
 * turn, stop sequences, a model hint), and its wire log shows the answer it got.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installDshProject } from '../support/dsh-project.ts'
import { childEnv, explain, expectExit, killGroup, run, running, type RunResult } from '../support/processes.ts'

interface Result {
  isError: boolean
  content: Array<{ type: string; text?: string }>
}
interface Seen {
  model: string
  system?: string
  messages: Array<{ role: string; text: string }>
  maxTokens?: number
  temperature?: number
  stop?: string[]
  aborted: boolean
}
interface Closed {
  childrenAfterDispose: unknown[]
  errorLogs: string[]
}
interface Out {
  node: string
  error?: string
  configured: { offered: boolean; service: boolean; reply: Result; cut: Result; failed: Result; hung: Result; seen: Seen[] } & Closed
  fixture: { result: Result; seen: Seen[]; answer?: { result?: unknown; error?: unknown } } & Closed
  disabled: { offered: boolean; service: boolean; modelCalls: number } & Closed
  modelless: { offered: boolean; service: boolean } & Closed
}

const timings: Array<{ what: string; ms: number }> = []
let out: Out
let remove: (() => void) | undefined

/** server-everything's tool result: the CreateMessageResult it got back, as JSON after a heading. */
function sampled(result: Result): unknown {
  expect(result.isError, JSON.stringify(result)).toBe(false)
  const text = result.content[0]?.text ?? ''
  return JSON.parse(text.slice(text.indexOf('{')))
}
const texts = (result: Result) => result.content.map((block) => block.text ?? '').join('\n')

beforeAll(async () => {
  const installed = await installDshProject(['plugin', 'fixtures-server'])
  remove = installed.remove
  timings.push(...installed.timings)
  const host: RunResult = await run(installed.node22, ['sampling-host.mjs'], { cwd: installed.project, env: childEnv(installed.node22, installed.project), timeoutMs: 180_000 })
  timings.push({ what: 'node22 sampling-host.mjs (four roots)', ms: host.ms })
  const line = host.stdout.trim().split('\n').at(-1) ?? ''
  try {
    out = JSON.parse(line) as Out
  } catch {
    throw new Error(explain(host, 'sampling-host.mjs printed no JSON line'))
  }
  expect(out.error, explain(host, 'sampling-host.mjs failed')).toBeUndefined()
  expectExit(host)
  expect(out.node).toMatch(/^v22\./)
}, 600_000)

afterAll(() => {
  for (const pid of running) killGroup(pid)
  if (timings.length) console.log(`dsh sampling timings:\n${timings.map(({ what, ms }) => `  ${String(ms).padStart(6)} ms  ${what}`).join('\n')}`)
  remove?.()
})

describe('sampling through ctx.llm inside the harness (hosts/dsh/support/sampling.mjs)', () => {
  it('declares sampling when configured and the model service is there: server-everything lists its tool', () => {
    expect(out.configured).toMatchObject({ offered: true, service: true })
  })

  it("hands the server's request to ctx.llm.stream, capped by the bridge, and joins the text deltas into the reply", () => {
    expect(sampled(out.configured.reply)).toEqual({ model: 'scripted-chat', stopReason: 'endTurn', role: 'assistant', content: { type: 'text', text: 'Hello from the harness.' } })
    expect(out.configured.seen[0]).toEqual({
      model: 'scripted-chat',
      system: 'You are a helpful test server.',
      messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: Say hi' }],
      // server-everything asked for 500; sampling.maxTokens is 50 and the bridge clamps.
      maxTokens: 50,
      temperature: 0.7,
      aborted: false,
    })
  })

  it("maps the harness' max-tokens finish to the MCP stopReason maxTokens", () => {
    expect(sampled(out.configured.cut)).toMatchObject({ stopReason: 'maxTokens', content: { type: 'text', text: 'Cut' } })
    expect(out.configured.seen[1]?.maxTokens).toBe(20)
  })

  it('a failing model gives the server -32603 with the reason, and the bridge goes on', () => {
    expect(out.configured.failed.isError).toBe(true)
    expect(texts(out.configured.failed)).toMatch(/-32603.*the model failed: scripted provider outage/s)
  })

  it('aborts the model call when the connection goes while it runs, and leaves no process behind', () => {
    expect(out.configured.seen[3]).toMatchObject({ aborted: true })
    expect(out.configured.hung.isError).toBe(true)
    expect(out.configured.seen).toHaveLength(4)
    expect(out.configured.childrenAfterDispose).toEqual([])
  })

  it("passes an assistant turn and stop sequences to the model, picks the hinted model, and the fixture gets the reply", () => {
    expect(out.fixture.seen).toEqual([
      {
        // sampling.models is [scripted-chat, scripted-pro]; the server's hint "pro" picks the second.
        model: 'scripted-pro',
        messages: [
          { role: 'user', text: 'Count to three.' },
          { role: 'assistant', text: 'One, two,' },
          { role: 'user', text: 'Go on, then say END.' },
        ],
        maxTokens: 30,
        stop: ['END'],
        aborted: false,
      },
    ])
    expect(out.fixture.answer?.result).toEqual({ model: 'scripted-pro', stopReason: 'endTurn', role: 'assistant', content: { type: 'text', text: 'three.' } })
    expect(out.fixture).toMatchObject({ result: { isError: false }, childrenAfterDispose: [], errorLogs: [] })
  })

  it('unconfigured (no sampling.enabled): no capability, so no tool, and the model is never called', () => {
    expect(out.disabled).toMatchObject({ offered: false, service: true, modelCalls: 0, childrenAfterDispose: [] })
  })

  it('configured but the harness has no model service: nothing provided, no capability', () => {
    expect(out.modelless).toMatchObject({ offered: false, service: false, childrenAfterDispose: [] })
  })
})
