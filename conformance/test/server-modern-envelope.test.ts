/**
 * The JSON-RPC envelope of a modern (2026-07-28) server, judged over everything its run carried,
 * and the x-mcp-header annotations of its tools: a real server (the v2 SDK's, over stdio and HTTP)
 * and a scripted correct one pass; each scripted breach fails (or, under a SHOULD NOT, warns)
 * exactly the check whose sentence it breaks.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import { ENVELOPE_CHECKS } from '../src/server/modern/envelope-rules.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { BREACHES } from './fixtures/modern-stdio/breaches.mjs'
import { startV2Http } from '../../plugin/test/support/v2-server.mjs'
import { findCheck as find, flagged, flaggedBeyondSdk } from './support/find-check.ts'

const SCRIPTED = fileURLToPath(new URL('./fixtures/modern-stdio/index.mjs', import.meta.url))
const V2_STDIO = fileURLToPath(new URL('../../plugin/test/support/v2-server.mjs', import.meta.url))
const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: [{ name: 'echo', arguments: { text: 'hi' } }] }
const IDS = ENVELOPE_CHECKS.map((def) => def.id)

function scripted(breach?: string): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [SCRIPTED, ...(breach ? [breach] : [])] }, OPTIONS)
}

/**
 * Every envelope check judged something and found nothing wrong (error codes and requests included);
 * a correct server sends no notification the kit did not ask for, so that check says it had nothing to judge.
 */
function expectEnvelopePasses(suite: SuiteResult): void {
  for (const id of IDS.filter((id) => id !== 'modern/notification-ids')) expect(find(suite, id).status, `${id}: ${find(suite, id).message}`).toBe('pass')
  expect(find(suite, 'modern/notification-ids')).toMatchObject({ status: 'skip', message: 'the server sent no notification; nothing to judge' })
}

describe('a correct modern server: every envelope check passes', () => {
  it('the scripted stdio server', async () => {
    const suite = await scripted()
    expect(flagged(suite)).toEqual([])
    expectEnvelopePasses(suite)
    expect(find(suite, 'modern/no-response-to-notifications').message).toBe('no response to the 3 notifications the kit sent')
    expect(find(suite, 'modern/x-mcp-header')).toMatchObject({ status: 'pass', message: '1 x-mcp-header annotations, each a unique HTTP token on a primitive parameter reached through properties' })
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)

  it('the v2 SDK server over stdio (serveStdio, legacy: reject)', async () => {
    const suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [V2_STDIO, 'stdio', 'reject'] }, OPTIONS)
    expect(flaggedBeyondSdk(suite)).toEqual([])
    expectEnvelopePasses(suite)
  }, 60_000)

  it('the v2 SDK server over Streamable HTTP (createMcpHandler, legacy: reject)', async () => {
    const server = await startV2Http({ legacy: 'reject' })
    try {
      const suite = await runServerSuite({ kind: 'http', url: server.url, headers: {} }, OPTIONS)
      expect(flaggedBeyondSdk(suite)).toEqual([])
      expectEnvelopePasses(suite)
    } finally {
      await server.close()
    }
  }, 60_000)
})

describe('a scripted modern server that breaks one envelope rule gets exactly that verdict', () => {
  it.each([
    ['notification-id', 'modern/notification-ids', 'fail', /^notifications\/message notification with id "log-1"$/, 'MUST NOT'],
    ['server-request', 'modern/no-server-requests', 'fail', /^the server sent 1 JSON-RPC request \("roots\/list"\) instead of asking through an input_required result/, 'MUST NOT'],
    ['request-null-id', 'modern/no-server-requests', 'fail', /^roots\/list request with id null, not a string or an integer$/, 'MUST NOT'],
    ['duplicate-result', 'modern/result-ids', 'fail', /^a second response to request \d+ \(tools\/list\)( \(and 1 more\))?$/, 'MUST'],
    ['reply-to-notification', 'modern/no-response-to-notifications', 'fail', /^response id "mcp-conformance-never-sent" answers the request id named in notifications\/cancelled/, 'MUST NOT'],
    ['jsonrpc-1', 'modern/jsonrpc-version', 'fail', /^response id \d+ \(to tools\/list\) has "jsonrpc": "1\.0", not "jsonrpc": "2\.0"( \(and 1 more\))?$/, 'MUST'],
    ['string-code', 'modern/error-shape', 'fail', /^response id \d+ \(to tools\/call\): error code "-32603" is not an integer$/, 'MUST'],
    ['result-and-error', 'modern/result-or-error', 'fail', /^response id \d+ \(to tools\/call\) has both a result and an error$/, 'MUST NOT'],
    ['retired-code', 'modern/error-codes', 'fail', /^the server answered with error -32042 \(to "tools\/call"\): a code this revision retires$/, 'MUST NOT'],
    ['reserved-code', 'modern/error-codes', 'fail', /^the server answered with error -32050 \(to "tools\/call"\): a code of the reserved sub-range -32099 to -32020 this specification does not define$/, 'MUST NOT'],
    ['outside-code', 'modern/error-codes', 'warn', /^the server answered with error -32100 \(to "tools\/call"\): a code inside JSON-RPC’s reserved range -32768 to -32000 that JSON-RPC does not define$/, 'SHOULD'],
    ['tools-repeated', 'modern/tool-names', 'warn', /^tools\/list names "echo" more than once$/, 'SHOULD'],
    ['header-empty', 'modern/x-mcp-header', 'fail', /^tool "echo": x-mcp-header is empty$/, 'MUST NOT'],
    ['header-token', 'modern/x-mcp-header', 'fail', /^tool "echo": x-mcp-header "Re gion" is not an HTTP token \(1\*tchar\)$/, 'MUST'],
    ['header-control', 'modern/x-mcp-header', 'fail', /^tool "echo": x-mcp-header "Region\\r\\n" contains a control character$/, 'MUST NOT'],
    ['header-repeated', 'modern/x-mcp-header', 'fail', /^tool "echo": x-mcp-header "REGION" repeats "Region" \(ignoring case\)$/, 'MUST'],
    ['header-number', 'modern/x-mcp-header', 'fail', /^tool "echo": x-mcp-header is on a parameter of type "number", not integer, string or boolean$/, 'MUST'],
    ['header-in-items', 'modern/x-mcp-header', 'fail', /^tool "echo": x-mcp-header sits at "properties\/tags\/items", not under properties alone$/, 'MUST'],
    ['legacy-code', 'modern/error-codes', 'warn', /^the server answered with error -32000 \(to "tools\/call"\): a code of the legacy sub-range -32019 to -32000$/, 'SHOULD NOT'],
  ])('%s: %s is %s', async (breach, id, status, message, keyword) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await scripted(breach)
    expect(find(suite, id)).toMatchObject({ status, message: expect.stringMatching(message), spec: { keyword } })
    // A request with a null id is no valid MCP message either: the stdio framing rule names the same line.
    const also = breach === 'request-null-id' ? [expect.stringMatching(/^modern\/stdio-stdout: 1 of \d+ stdout lines were not MCP messages; .*request id must be a string or number\)$/)] : []
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${id}: `)), ...also])
    expect(exitCodeOf([suite], [])).toBe(status === 'fail' ? 1 : 0)
  }, 60_000)

  it('covers every breach the fixture knows', () => {
    expect(Object.keys(BREACHES)).toHaveLength(19)
  })
})
