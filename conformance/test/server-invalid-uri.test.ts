/**
 * "Servers MUST validate all resource URIs": resources/read of a string that is no URI must be
 * refused. Legacy revisions (resources/invalid-uri): a real stdio server that refuses what it does
 * not hold passes, one that serves any string fails; mcp-fixture (the SDK's own resources) passes.
 * 2026-07-28 (modern/resource-read, case validate): the scripted server passes and fails the same way.
 */
import { startHttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { startModernServer } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

const OPTIONS = { requestTimeoutMs: 5_000, exitGraceMs: 1_000 }
const KNOWN = 'mem://notes/a'

// Declares resources and lists one; `strict` refuses every other URI, otherwise any string is served.
const SERVER = lineServerSource(
  `const strict = process.argv[2] === 'strict'`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: message.params.protocolVersion, capabilities: { resources: {} }, serverInfo: { name: 'uri-server', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} }
      : message.method === 'resources/list' ? (message.params?.cursor === undefined ? { result: { resources: [{ uri: '${KNOWN}', name: 'a' }] } } : { error: { code: -32602, message: 'Invalid cursor' } })
      : message.method === 'resources/templates/list' ? { result: { resourceTemplates: [] } }
      : message.method === 'resources/read' ? (message.params?.uri === '${KNOWN}' || !strict ? { result: { contents: [{ uri: message.params.uri, text: 'a' }] } } : { error: { code: -32002, message: 'Resource not found' } })
      : { error: { code: -32601, message: 'Method not found' } }`,
)
const script = lineServerFile(SERVER)

function legacy(mode: 'strict' | 'lax', revision: '2025-03-26' | '2025-06-18' | '2025-11-25'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), mode] }, { ...OPTIONS, revision })
}

describe('resources/invalid-uri (legacy revisions)', () => {
  it.each(['2025-03-26', '2025-06-18', '2025-11-25'] as const)('%s: a server that refuses it passes; one that serves it fails under the MUST', async (revision) => {
    const strict = await legacy('strict', revision)
    expect(find(strict, 'resources/invalid-uri')).toMatchObject({ status: 'pass', message: 'resources/read of "not a uri" was refused: JSON-RPC error -32002 (Resource not found)' })
    const lax = await legacy('lax', revision)
    expect(find(lax, 'resources/invalid-uri')).toMatchObject({
      status: 'fail',
      message: 'resources/read of "not a uri" got a result: a string that is no URI was served, not refused',
      spec: { keyword: 'MUST', quote: 'Servers MUST validate all resource URIs', url: `https://modelcontextprotocol.io/specification/${revision}/server/resources#security-considerations` },
    })
    expect(flagged(lax).filter((line) => !flagged(strict).includes(line))).toEqual([expect.stringMatching(/^resources\/invalid-uri: /)])
  }, 60_000)

  it('mcp-fixture over Streamable HTTP refuses it', async () => {
    const fixture = await startHttpFixture({ name: 'invalid-uri', tools: [], resources: { items: [{ uri: 'fixture://notes/a', name: 'a', text: 'hello' }] } })
    try {
      const suite = await runServerSuite({ kind: 'http', url: fixture.url, headers: {} }, OPTIONS)
      expect(find(suite, 'resources/invalid-uri')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^resources\/read of "not a uri" was refused: JSON-RPC error/) })
    } finally {
      await fixture.close()
    }
  }, 60_000)
})

describe('modern/resource-read, case validate (2026-07-28)', () => {
  it.each([
    [undefined, 'pass', /resources\/read of "not a uri" refused/],
    ['invalid-uri-served', 'fail', /^resources\/read of "not a uri" got a result: a string that is no URI was served, not refused$/],
  ])('scripted server %s: %s', async (breach, status, message) => {
    const server = await startModernServer(breach ? { breach } : {})
    try {
      const suite = await runServerSuite({ kind: 'http', url: server.url, headers: {} }, OPTIONS)
      expect(find(suite, 'modern/resource-read')).toMatchObject({ status, message: expect.stringMatching(message) })
      if (breach) {
        expect(find(suite, 'modern/resource-read').spec).toMatchObject({ keyword: 'MUST', quote: 'Servers MUST validate all resource URIs' })
        expect(flagged(suite)).toEqual([expect.stringMatching(/^modern\/resource-read: /)])
      }
    } finally {
      await server.close()
    }
  }, 60_000)
})
