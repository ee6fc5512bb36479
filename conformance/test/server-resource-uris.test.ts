/**
 * "Custom URI schemes MUST be in accordance with RFC3986": the pure rule, and a real stdio server
 * process (scripted here) listing a resource whose URI its argument gives, judged by
 * resources/uri-syntax.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { customUriVerdict } from '../src/server/uri-syntax.ts'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

describe('customUriVerdict', () => {
  it.each(['mem://notes/a%20b', 'urn:example:x', 'db+pg://h/t?q=1#f', "x-app:/a/(b)!$&'*+,;=@~"])('accepts %j', (uri) => {
    expect(customUriVerdict(uri)).toEqual({ judged: true })
  })

  it.each([
    ['mem://notes/a b', /" " at position 13/],
    ['mem://é', /"é"/],
    ['mem://x%2', /starts no percent-encoding/],
    ['mem://{id}', /"\{"/],
  ])('rejects %j', (uri, why) => {
    expect(customUriVerdict(uri)).toEqual({ judged: true, problem: expect.stringMatching(why) })
  })

  it('leaves the common schemes and scheme-less strings alone', () => {
    for (const uri of ['file:///my docs/a.txt', 'https://x/a b', 'git://x', 'no scheme here']) expect(customUriVerdict(uri)).toEqual({ judged: false })
  })
})

// Declares resources and lists one, whose uri is its argument.
const SERVER = lineServerSource(
  `const uri = process.argv[2]`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: '2025-11-25', capabilities: { resources: {} }, serverInfo: { name: 'uri-server', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} }
      : message.method === 'resources/list' ? (message.params?.cursor === undefined ? { result: { resources: [{ uri, name: 'a' }] } } : { error: { code: -32602, message: 'Invalid cursor' } })
      : message.method === 'resources/read' ? (message.params?.uri === uri ? { result: { contents: [{ uri, text: 'a' }] } } : { error: { code: -32002, message: 'Resource not found' } })
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(uri: string): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), uri] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000 })
}

describe('listed resource URIs of a real server', () => {
  it('a percent-encoded custom-scheme URI passes, with nothing flagged', async () => {
    const suite = await run('mem://notes/a%20b')
    expect(find(suite, 'resources/uri-syntax')).toMatchObject({ status: 'pass', message: '1 listed resource URI with a custom scheme, each as RFC 3986 allows' })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('a raw space fails exactly resources/uri-syntax, under the MUST', async () => {
    const suite = await run('mem://notes/a b')
    expect(find(suite, 'resources/uri-syntax')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^1 listed resource URI with a custom scheme breaks RFC 3986: "mem:\/\/notes\/a b" \(it has " " at position 13/),
      spec: { keyword: 'MUST', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/resources#custom-uri-schemes' },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^resources\/uri-syntax: /)])
  }, 60_000)
})
