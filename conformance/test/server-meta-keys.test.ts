/**
 * The _meta key naming rules (basic/index#meta, 2025-06-18 on): the pure rules key by key, and a
 * real stdio server process (scripted here) whose ping result carries the key its argument names,
 * judged by meta/key-names (MUST) and meta/reverse-dns (SHOULD).
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { metaKeyProblem, metaKeysOf } from '../src/server/meta-keys.ts'
import { runServerSuite } from '../src/server/run.ts'
import type { Revision } from '../src/server/spec.ts'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

describe('metaKeyProblem', () => {
  it.each(['progressToken', 'io.modelcontextprotocol/related-task', 'com.example/trace-id', 'openai/outputTemplate', 'a', 'x/', 'a.b-c.d9/n.a_m-e', 'a/b/c'])('accepts %j', (key) => {
    expect(metaKeyProblem(key)).toBeUndefined()
  })

  it.each([
    ['_private', /its name "_private" does not begin/],
    ['trace-', /its name "trace-" does not begin/],
    ['/name', /an empty label/],
    ['com..example/x', /an empty label/],
    ['1com.example/x', /the label "1com"/],
    ['com.example-/x', /the label "example-"/],
    ['com_example/x', /the label "com_example"/],
  ])('breaks the format: %j', (key, why) => {
    expect(metaKeyProblem(key)).toEqual({ fault: 'format', why: expect.stringMatching(why) })
  })

  it('a prefix ending in a top-level domain is forward DNS notation; one naming none is not judged', () => {
    expect(metaKeyProblem('example.com/trace')).toEqual({ fault: 'reverse-dns', why: expect.stringContaining('"com"') })
    expect(metaKeyProblem('acme.tools/trace')).toBeUndefined()
  })
})

describe('metaKeysOf', () => {
  it('reads every _meta object but those inside free-form data (schemas, structuredContent, log data)', () => {
    const message = {
      result: {
        _meta: { a: 1 },
        tools: [{ name: 't', _meta: { b: 1 }, inputSchema: { properties: { _meta: { type: 'object' } } } }],
        content: [{ type: 'text', text: 'x', _meta: { c: 1 } }],
        structuredContent: { _meta: { '-bad': 1 } },
      },
      params: { data: { _meta: { '-bad': 1 } } },
    }
    expect(metaKeysOf(message).sort()).toEqual(['a', 'b', 'c'])
  })

  it('stops at its node limit on a huge message', () => {
    const wide = { result: { items: Array.from({ length: 100 }, () => ({ _meta: { k: 1 } })) } }
    expect(metaKeysOf(wide, { depth: 64, nodes: 10 }).length).toBeLessThan(10)
  })
})

// Answers initialize with the revision the client asked for (2025-11-25 for one it does not know) and ping with a result whose _meta carries the key named by its argument.
const SERVER = lineServerSource(
  `const key = process.argv[2]
const KNOWN = ['2025-03-26', '2025-06-18', '2025-11-25']`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: KNOWN.includes(message.params.protocolVersion) ? message.params.protocolVersion : '2025-11-25', capabilities: {}, serverInfo: { name: 'meta-on-ping', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: { _meta: { [key]: true } } }
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(key: string, revision: Revision = '2025-11-25'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), key] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000, revision })
}

describe('_meta keys of a real server', () => {
  it('a reverse-DNS prefixed key passes both checks, with nothing flagged', async () => {
    const suite = await run('com.example/trace-id')
    expect(find(suite, 'meta/key-names')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^\d+ _meta keys, each well-formed$/) })
    expect(find(suite, 'meta/reverse-dns')).toMatchObject({ status: 'pass' })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('a name that begins with "_" fails exactly meta/key-names, under the MUST', async () => {
    const suite = await run('_private')
    expect(find(suite, 'meta/key-names')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^the server sent the _meta key "_private" \(its name "_private" does not begin and end with a letter or digit\)( \(\d+ such keys in all\))?$/),
      spec: { keyword: 'MUST', url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic#meta' },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^meta\/key-names: /)])
  }, 60_000)

  it('a forward-DNS prefix warns exactly meta/reverse-dns, under the SHOULD', async () => {
    const suite = await run('example.com/trace')
    expect(find(suite, 'meta/reverse-dns')).toMatchObject({ status: 'warn', spec: { keyword: 'SHOULD' } })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^meta\/reverse-dns: /)])
  }, 60_000)

  it('before 2025-06-18 no sentence names _meta keys: the same key is not judged', async () => {
    const suite = await run('_private', '2025-03-26')
    expect(find(suite, 'meta/key-names')).toMatchObject({ status: 'skip', message: expect.stringContaining('not part of the negotiated revision 2025-03-26') })
    expect(flagged(suite)).toEqual([])
  }, 60_000)
})
