/**
 * "Servers that use embedded resources SHOULD implement the resources capability": a real stdio
 * server process (scripted here) whose tool returns an embedded resource, with the resources
 * capability (passes) or without it (tools/call/{name} warns under that sentence).
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

// Declares resources unless its argument is "no-resources"; its one tool returns an embedded resource.
const SERVER = lineServerSource(
  `const withResources = process.argv[2] !== 'no-resources'
const DOC = { uri: 'mem://doc', name: 'doc' }`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, ...(withResources ? { resources: {} } : {}) }, serverInfo: { name: 'embed-server', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} }
      : message.method === 'tools/list' ? (message.params?.cursor === undefined ? { result: { tools: [{ name: 'fetch_doc', description: 'Returns a document', inputSchema: { type: 'object', properties: {} } }] } } : { error: { code: -32602, message: 'Invalid cursor' } })
      : message.method === 'tools/call' && message.params.name === 'fetch_doc' ? { result: { content: [{ type: 'resource', resource: { uri: 'mem://doc', mimeType: 'text/plain', text: 'hello' } }] } }
      : message.method === 'tools/call' ? { error: { code: -32602, message: 'Unknown tool' } }
      : message.method === 'resources/list' && withResources ? { result: { resources: [DOC] } }
      : message.method === 'resources/read' && withResources ? (message.params?.uri === 'mem://doc' ? { result: { contents: [{ uri: 'mem://doc', text: 'hello' }] } } : { error: { code: -32002, message: 'Resource not found' } })
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(mode: 'resources' | 'no-resources'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), mode] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: [{ name: 'fetch_doc', arguments: {} }] })
}

describe('a tool result with an embedded resource', () => {
  it('from a server that declares resources passes', async () => {
    const suite = await run('resources')
    expect(find(suite, 'tools/call/fetch_doc')).toMatchObject({ status: 'pass', message: 'result with resource' })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('from a server that does not warns tools/call/fetch_doc, under the SHOULD', async () => {
    const suite = await run('no-resources')
    expect(find(suite, 'tools/call/fetch_doc')).toMatchObject({
      status: 'warn',
      message: 'the result embeds a resource (resource), but the server does not declare the resources capability',
      spec: { keyword: 'SHOULD', quote: 'Servers that use embedded resources SHOULD implement the resources capability:' },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^tools\/call\/fetch_doc: /)])
  }, 60_000)
})
