// Sampling inside the harness: the bridge hosted by a harness root whose `mcpSampling` service is
// support/sampling.mjs over dsh-llm's LlmRuntime, against server-everything's
// trigger-sampling-request tool over stdio, called through ToolRuntime.execute. Prints one JSON
// line of observations; test/dsh/sampling.test.ts judges them. Run from a project where this
// directory's package.json is installed with the plugin's tarball: `node sampling-host.mjs`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { LlmAdapter } from '@deepseek-ai/dsh-llm'
import * as bridge from '@mcp-bridge/plugin'
import { descendants } from './support/children.mjs'
import { provideSampling } from './support/sampling.mjs'
import { createDshRoot } from './support/services.mjs'

const require = createRequire(import.meta.url)
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const entry = { serverName: 'everything', transport: 'stdio', command: process.execPath, args: [everything, 'stdio'] }
const SAMPLING_TOOL = 'mcp__everything__trigger-sampling-request'
// The kit's fixture asks what server-everything does not: a conversation with an assistant turn,
// stop sequences and a model hint. Its wire log shows the answer it got.
const fixtureBin = join(dirname(require.resolve('@mcp-bridge/fixtures-server/package.json')), 'bin/mcp-fixture.js')
const FIXTURE_ASK = {
  messages: [
    { role: 'user', content: { type: 'text', text: 'Count to three.' } },
    { role: 'assistant', content: { type: 'text', text: 'One, two,' } },
    { role: 'user', content: { type: 'text', text: 'Go on, then say END.' } },
  ],
  maxTokens: 30,
  stopSequences: ['END'],
  modelPreferences: { hints: [{ name: 'pro' }] },
}
const FIXTURE = { tools: [{ name: 'ask', asks: [{ method: 'sampling/createMessage', params: FIXTURE_ASK }], result: { content: [{ type: 'text', text: 'asked' }] } }] }
// server-everything lists its late tools after `initialized` (this one always), the sampling one
// only to a client that declared sampling: once this one is there, the other's absence means something.
const LATE_TOOL = 'mcp__everything__simulate-research-query'
const out = { node: process.version }
let calls = 0

/**
 * The model boundary, scripted: the only part of this run that is not the harness' own. Its real
 * adapters call a provider's API with a key this repository does not have, and cannot be made to
 * stop at max-tokens, fail or hang on demand. Each stream() takes the next step of `script` and
 * records what LlmRuntime handed it.
 */
class ScriptedAdapter extends LlmAdapter {
  script = []
  seen = []

  async resolveModel(provider, model) {
    return { provider, id: model, name: model, inputModalities: ['text'] }
  }

  async *stream(options) {
    const step = this.script.shift() ?? { fail: 'the script has no step left' }
    const seen = {
      model: options.model,
      system: options.system,
      messages: options.messages.map((message) => ({ role: message.role, text: message.content.map((block) => block.text).join('') })),
      maxTokens: options.maxTokens,
      temperature: options.temperature,
      stop: options.stop,
      aborted: false,
    }
    this.seen.push(seen)
    if (step.fail) throw new Error(step.fail)
    if (step.hang) {
      step.entered()
      await new Promise((resolve) => options.signal.addEventListener('abort', resolve, { once: true }))
      seen.aborted = true
      throw options.signal.reason
    }
    yield { type: 'block-start', index: 0, blockType: 'text' }
    for (const text of step.deltas) yield { type: 'text-delta', index: 0, text }
    yield { type: 'block-end', index: 0, block: { type: 'text', text: step.deltas.join('') } }
    yield { type: 'usage', usage: { inputTokens: 1, outputTokens: step.deltas.length } }
    yield { type: 'finish', reason: { kind: step.finish } }
  }
}

function execute(ctx, args, name = SAMPLING_TOOL) {
  return ctx.tools.execute({ callId: `call-${++calls}`, name, arguments: args, signal: new AbortController().signal })
}

async function waitFor(predicate, what) {
  // Bounded by the bridge's own connect and discovery timeouts; this only stops a silent hang.
  for (let i = 0; i < 600; i++) {
    if (predicate()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const servers = () => descendants().filter((child) => child.command.includes(everything))

/** One harness root with the bridge loaded; `withModel`: LlmRuntime and the scripted adapter there. */
async function host({ sampling, withModel, server = entry, late = LATE_TOOL }) {
  const root = await createDshRoot({ images: withModel })
  const adapter = new ScriptedAdapter()
  if (withModel) root.ctx.llm.registerAdapter(['scripted'], adapter)
  // As a deployment would: provides `mcpSampling` only when the root has `ctx.llm`.
  provideSampling(root.ctx, { provider: 'scripted', model: 'scripted-chat' })
  const fiber = root.ctx.plugin(bridge, { ...server, ...(sampling ? { sampling } : {}) })
  await fiber
  await waitFor(() => root.ctx.tools.get(late) !== undefined, `${late} to be listed`)
  return { root, adapter, fiber, offered: root.ctx.tools.get(SAMPLING_TOOL) !== undefined, service: root.ctx.get('mcpSampling') !== undefined }
}

async function close({ root, fiber }) {
  await fiber.dispose()
  await root.dispose()
  for (let i = 0; i < 50 && servers().length; i++) await new Promise((resolve) => setTimeout(resolve, 100))
  return { childrenAfterDispose: servers(), errorLogs: root.logs.filter((line) => line.startsWith('[error]')) }
}

try {
  const configured = await host({ sampling: { enabled: true, maxTokens: 50 }, withModel: true })
  const { adapter } = configured
  out.configured = { offered: configured.offered, service: configured.service }
  adapter.script.push({ deltas: ['Hello ', 'from ', 'the harness.'], finish: 'stop' })
  out.configured.reply = await execute(configured.root.ctx, { prompt: 'Say hi', maxTokens: 500 })
  adapter.script.push({ deltas: ['Cut'], finish: 'max-tokens' })
  out.configured.cut = await execute(configured.root.ctx, { prompt: 'Go on', maxTokens: 20 })
  adapter.script.push({ fail: 'scripted provider outage' })
  out.configured.failed = await execute(configured.root.ctx, { prompt: 'Fail', maxTokens: 20 })
  // A model call still running when the connection goes: the bridge aborts it, and so does the harness.
  let entered
  const inside = new Promise((resolve) => (entered = resolve))
  adapter.script.push({ hang: true, entered })
  const pending = execute(configured.root.ctx, { prompt: 'Hang', maxTokens: 20 })
  await inside
  const closed = await close(configured)
  out.configured.hung = await pending
  out.configured.seen = adapter.seen
  Object.assign(out.configured, closed)

  const disabled = await host({ sampling: undefined, withModel: true })
  out.disabled = { offered: disabled.offered, service: disabled.service, modelCalls: disabled.adapter.seen.length, ...(await close(disabled)) }

  const dir = mkdtempSync(join(tmpdir(), 'dsh-sampling-'))
  try {
    const wireFile = join(dir, 'wire.jsonl')
    const server = { serverName: 'fixture', transport: 'stdio', command: process.execPath, args: [fixtureBin, '--json', JSON.stringify(FIXTURE), '--wire', wireFile] }
    const fixture = await host({ sampling: { enabled: true, models: ['scripted-chat', 'scripted-pro'] }, withModel: true, server, late: 'mcp__fixture__ask' })
    fixture.adapter.script.push({ deltas: ['three.'], finish: 'stop' })
    out.fixture = { result: await execute(fixture.root.ctx, {}, 'mcp__fixture__ask'), seen: fixture.adapter.seen }
    const wire = readFileSync(wireFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    const ask = wire.find((entry) => entry.dir === 'send' && entry.msg.method === 'sampling/createMessage')
    out.fixture.answer = wire.find((entry) => entry.dir === 'recv' && ask && entry.msg.id === ask.msg.id && !entry.msg.method)?.msg
    Object.assign(out.fixture, await close(fixture))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  const modelless = await host({ sampling: { enabled: true }, withModel: false })
  out.modelless = { offered: modelless.offered, service: modelless.service, ...(await close(modelless)) }
} catch (error) {
  out.error = error?.stack ?? String(error)
  process.exitCode = 1
}
console.log(JSON.stringify(out))
