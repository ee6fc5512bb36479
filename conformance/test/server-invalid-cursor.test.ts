/**
 * "Invalid cursors SHOULD result in an error with code -32602 (Invalid params).": a real stdio
 * server process (scripted here) declaring tools (two pages, or one) and resources (one page),
 * whose answer to a cursor it never issued its argument chooses, judged by pagination/invalid-cursor.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

// A cursor never issued gets -32602 ("refuse"), the first page again ("first-page", and "flat", whose tools come in one page), or -32603 ("internal").
const SERVER = lineServerSource(
  `const mode = process.argv[2]
const TOOLS = { tools: [{ name: 'noop', inputSchema: { type: 'object' } }], ...(mode === 'flat' ? {} : { nextCursor: 'page-2' }) }
const PAGE_2 = { tools: [{ name: 'other', inputSchema: { type: 'object' } }] }
const RESOURCES = { resources: [{ uri: 'mem://a', name: 'a' }] }
const WRONG = { refuse: { error: { code: -32602, message: 'Invalid cursor' } }, internal: { error: { code: -32603, message: 'boom' } } }
function list(page, cursor) {
  if (cursor === undefined) return { result: page }
  if (cursor === 'page-2' && page === TOOLS) return { result: PAGE_2 }
  return WRONG[mode] ?? { result: page }
}`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, resources: {} }, serverInfo: { name: 'cursor-server', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} }
      : message.method === 'tools/list' ? list(TOOLS, message.params?.cursor)
      : message.method === 'resources/list' ? list(RESOURCES, message.params?.cursor)
      : message.method === 'resources/read' ? (message.params?.uri === 'mem://a' ? { result: { contents: [{ uri: 'mem://a', text: 'a' }] } } : { error: { code: -32002, message: 'Resource not found' } })
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(mode: 'refuse' | 'first-page' | 'internal' | 'flat'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), mode] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000 })
}

describe('a list cursor the server never issued', () => {
  it('refused with -32602 by the list that paginates passes (the one-page list is not asked), with nothing flagged', async () => {
    const suite = await run('refuse')
    expect(find(suite, 'pagination/invalid-cursor')).toMatchObject({ status: 'pass', message: 'tools/list refused a cursor never issued with -32602' })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('answered with the first page by a list that paginates warns exactly pagination/invalid-cursor, under the SHOULD', async () => {
    const suite = await run('first-page')
    expect(find(suite, 'pagination/invalid-cursor')).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/^tools\/list with cursor "mcp-conformance-no-such-cursor" got a result \(.*\), not JSON-RPC error -32602 \(Invalid params\)$/),
      spec: { keyword: 'SHOULD', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination' },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^pagination\/invalid-cursor: /)])
  }, 60_000)

  it('answered with another error warns too', async () => {
    const suite = await run('internal')
    expect(find(suite, 'pagination/invalid-cursor')).toMatchObject({ status: 'warn', message: expect.stringMatching(/^tools\/list with cursor .* got .*-32603/) })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^pagination\/invalid-cursor: /)])
  }, 60_000)

  it('lists that do not paginate issue no cursors: nothing is asked, nothing judged', async () => {
    const suite = await run('flat')
    expect(find(suite, 'pagination/invalid-cursor')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^tools\/list, resources\/list: none paginates cleanly/) })
    expect(flagged(suite)).toEqual([])
  }, 60_000)
})
