import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import type { SamplingRequest } from '@mcp-bridge/plugin'
import { createFileHost } from '../src/loader/host.ts'
import { converseSampling, OPERATOR_MODEL, terminalSampling } from '../src/sampling.ts'
import { scriptedPerson } from './support/scripted-person.ts'

const require = createRequire(import.meta.url)
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')

const request = (): SamplingRequest => ({
  serverName: 'shop',
  systemPrompt: 'Be brief \u001b]0;PWNED\u0007',
  messages: [{ role: 'user', text: 'Say hi' }],
  maxTokens: 50,
  signal: new AbortController().signal,
})

/** A person typing `lines` in order; what they were shown is kept. */
const person = scriptedPerson

describe('the terminal sampling prompt', () => {
  it("names the server, shows the request with the server's control characters escaped, and reads the reply up to a lone dot", async () => {
    const p = person(['y', 'Hello', '', 'there', '.'])
    expect(await converseSampling(request(), p.ask, p.say)).toBe('Hello\n\nthere')
    expect(p.shown[0]).toContain('MCP server "shop" asks for a model reply (at most 50 tokens)')
    expect(p.shown.join('\n')).not.toContain('\u001b')
    expect(p.shown).toContain('  user: Say hi')
  })

  it('anything but y refuses', async () => {
    expect(await converseSampling(request(), person(['n']).ask, () => {})).toBeUndefined()
    expect(await converseSampling(request(), person(['']).ask, () => {})).toBeUndefined()
  })

  it('refuses every request when its input is not a terminal, and answers only what it approved', async () => {
    const service = terminalSampling({ input: new PassThrough(), output: new PassThrough() })
    expect(await service.approve!(request())).toBe(false)
    await expect(service.createMessage(request())).rejects.toThrow(/no reply was typed/)
  })
})

/** server-everything's sampling tool through the reference file host, as `mcp-bridge call` runs it. */
describe('server-everything trigger-sampling-request through the reference host', () => {
  async function run(sampling: Record<string, unknown> | undefined, typed: string) {
    const dir = await mkdtemp(join(tmpdir(), 'sampling-host-'))
    const file = join(dir, 'cordis.yml')
    const config = { serverName: 'everything', transport: 'stdio', command: process.execPath, args: [everything, 'stdio'], ...(sampling && { sampling }) }
    await writeFile(file, stringify([{ id: 'everything', name: '@mcp-bridge/plugin', config }]))
    const input = Object.assign(new PassThrough(), { isTTY: true })
    const output = new PassThrough()
    let shown = ''
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()))
    const host = await createFileHost({ file, logging: false, signals: false, sampling: terminalSampling({ input, output }) })
    try {
      const name = 'mcp__everything__trigger-sampling-request'
      // server-everything lists its late tools after `initialized` (simulate-research-query always),
      // the sampling one only to a client that declared sampling.
      await expect.poll(() => host.tools.get('mcp__everything__simulate-research-query') !== undefined, { timeout: 20_000 }).toBe(true)
      const offered = host.tools.get(name) !== undefined
      if (!offered) return { offered, shown }
      input.write(typed)
      const result = await host.tools.execute(name, { prompt: 'Say hi', maxTokens: 500 })
      return { offered, shown, result }
    } finally {
      await host.dispose()
      await rm(dir, { recursive: true, force: true })
    }
  }

  it("configured: the operator's reply reaches the server, maxTokens clamped to the cap", async () => {
    const { offered, shown, result } = await run({ enabled: true, maxTokens: 50 }, 'y\nHello from the operator.\n.\n')
    expect(offered).toBe(true)
    expect(shown).toContain('MCP server "everything" asks for a model reply (at most 50 tokens)')
    const text = (result as { content: Array<{ text: string }> }).content[0]!.text
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual({ model: OPERATOR_MODEL, stopReason: 'endTurn', role: 'assistant', content: { type: 'text', text: 'Hello from the operator.' } })
  })

  it('refused by the operator: the server gets -1', async () => {
    const { result } = await run({ enabled: true }, 'n\n')
    expect(result).toMatchObject({ isError: true, error: { message: expect.stringMatching(/MCP error -1: sampling\/createMessage refused by the host for server "everything"/) } })
  })

  it('unconfigured: no sampling capability, so server-everything does not offer the tool', async () => {
    const { offered } = await run(undefined, '')
    expect(offered).toBe(false)
  })
})
