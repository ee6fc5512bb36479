import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureCommand, readWireFile, type BehaviourInput, type WireEntry } from '../src/index.ts'
import { ChildTransport } from './support/child-transport.ts'
import { type Kind, liveFixtureChildren, open, tempDir } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

const behaviour: BehaviourInput = { name: 'wire-test', version: '1.2.3', seed: 3, tools: [{ name: 'img', result: { content: [{ type: 'image', format: 'gif' }] } }] }

/** The same client conversation over either transport; returns the fixture's wire log. */
async function converse(kind: Kind): Promise<WireEntry[]> {
  const fx = await open(kind, behaviour)
  await fx.client.listTools()
  await fx.client.callTool({ name: 'img', arguments: { n: 1 } })
  await fx.close()
  return fx.wire()
}

const summary = (entries: WireEntry[]) =>
  entries.map(({ dir, msg }) => `${dir} ${'method' in msg ? msg.method : 'result' in msg ? `result ${String(msg.id)}` : 'error'}`)

describe('wire recording', () => {
  it('records every message both ways, in order', async () => {
    expect(summary(await converse('http'))).toEqual([
      'recv initialize',
      'send result 0',
      'recv notifications/initialized',
      'recv tools/list',
      'send result 1',
      'recv tools/call',
      'send result 2',
    ])
  })

  it('is identical across runs and across transports (seeded, no clocks)', async () => {
    const [http, again, stdio] = [await converse('http'), await converse('http'), await converse('stdio')]
    expect(again).toEqual(http)
    expect(stdio).toEqual(http)
  })

  it('writes one {"dir","msg"} object per line, to the env path over the behaviour path', async () => {
    const dir = tempDir()
    const run = async (env: Record<string, string>) => {
      const { command, args } = fixtureCommand({ ...behaviour, wire: join(dir, 'from-behaviour.jsonl') })
      const transport = new ChildTransport(command, args, { ...process.env, ...env })
      const client = new Client({ name: 'wire-test', version: '1' })
      await client.connect(transport)
      await transport.close()
    }
    await run({})
    const lines = readFileSync(join(dir, 'from-behaviour.jsonl'), 'utf8').trimEnd().split('\n')
    // The fixture's own report first (its pid and group), then the conversation, then its EOF.
    const kinds = lines.map((line) => JSON.parse(line) as { dir: string; msg?: unknown; proc?: { event: string } })
    expect(kinds.map((entry) => Object.keys(entry))).toEqual([['dir', 'proc'], ['dir', 'msg'], ['dir', 'msg'], ['dir', 'msg'], ['dir', 'proc']])
    expect(kinds.filter((entry) => entry.proc).map((entry) => entry.proc!.event)).toEqual(['start', 'eof'])
    await run({ MCP_FIXTURE_WIRE: join(dir, 'from-env.jsonl') })
    expect(readWireFile(join(dir, 'from-env.jsonl'))).toHaveLength(3)
    expect(readWireFile(join(dir, 'from-behaviour.jsonl'))).toHaveLength(3)
  })
})
