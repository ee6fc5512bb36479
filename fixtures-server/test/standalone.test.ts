import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { describe, expect, it } from 'vitest'
import { fixtureCommand, readWireFile } from '../src/index.ts'
import { ChildTransport } from './support/child-transport.ts'
import { tempDir } from './support/fixtures.ts'

const SCENARIO = resolve(fileURLToPath(new URL('../../scenarios/clean-discovery.yaml', import.meta.url)))

// A client in any language points at the fixture by command line alone: a scenario file as the
// behaviour, the wire log in argv (a client that passes its child no environment still leaves one).
describe('the fixture as a standalone target', () => {
  it('serves a scenario file by its server: section and logs to --wire with an empty environment', async () => {
    const dir = tempDir()
    const { command, args } = fixtureCommand(SCENARIO)
    const transport = new ChildTransport(command, [...args, '--wire', join(dir, 'wire.jsonl')], {})
    const client = new Client({ name: 'standalone', version: '1' })
    await client.connect(transport)
    const { tools } = await client.listTools()
    await transport.close()
    expect(tools.map((t) => t.name)).toEqual(['echo', 'add'])
    expect(readWireFile(join(dir, 'wire.jsonl')).filter((e) => e.dir === 'recv').map((e) => ('method' in e.msg ? e.msg.method : ''))).toEqual(['initialize', 'notifications/initialized', 'tools/list'])
  })
})
