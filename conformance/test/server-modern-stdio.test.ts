/**
 * The stdio sentences of 2026-07-28, judged from a modern server's stdout and exit: the scripted
 * stdio server (fixtures/modern-stdio) and the v2 SDK's pass; each scripted breach fails (or, for
 * the exit SHOULD, warns) the check whose sentence it breaks, under that sentence.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { splitMessages } from '../src/server/modern/stdio.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { STDIO_BREACHES } from './fixtures/modern-stdio/breaches.mjs'
import { findCheck as find } from './support/find-check.ts'

const SCRIPTED = fileURLToPath(new URL('./fixtures/modern-stdio/index.mjs', import.meta.url))
const V2_STDIO = fileURLToPath(new URL('../../plugin/test/support/v2-server.mjs', import.meta.url))
// The exit grace is the only bound on "promptly": small here so a server that ignores EOF costs little.
const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 500, calls: [{ name: 'echo', arguments: { text: 'hi' } }] }
const IDS = ['modern/stdio-stdout', 'modern/stdio-utf8', 'modern/stdio-exit-on-eof']

function scripted(breach?: string): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [SCRIPTED, ...(breach ? [breach] : [])] }, OPTIONS)
}

const statusOf = (suite: SuiteResult) => Object.fromEntries(IDS.map((id) => [id, find(suite, id).status]))
const quoteOf = (suite: SuiteResult, id: string) => find(suite, id).spec?.quote

describe('a correct modern stdio server passes the stdio sentences of 2026-07-28', () => {
  it('the scripted server', async () => {
    const suite = await scripted()
    expect(statusOf(suite)).toEqual({ 'modern/stdio-stdout': 'pass', 'modern/stdio-utf8': 'pass', 'modern/stdio-exit-on-eof': 'pass' })
    // The legacy stdio checks cite earlier revisions: not run against a modern-only server.
    expect(suite.checks.some((c) => c.id.startsWith('stdio/'))).toBe(false)
  }, 60_000)

  it('the v2 SDK server (serveStdio, legacy: reject)', async () => {
    const suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [V2_STDIO, 'stdio', 'reject'] }, OPTIONS)
    expect(statusOf(suite)).toEqual({ 'modern/stdio-stdout': 'pass', 'modern/stdio-utf8': 'pass', 'modern/stdio-exit-on-eof': 'pass' })
  }, 60_000)
})

describe('each broken modern stdio server breaks the sentence it breaks', () => {
  it('a log line on stdout fails modern/stdio-stdout under "nothing but valid MCP messages"', async () => {
    const suite = await scripted('stdout-noise')
    expect(statusOf(suite)).toEqual({ 'modern/stdio-stdout': 'fail', 'modern/stdio-utf8': 'pass', 'modern/stdio-exit-on-eof': 'pass' })
    expect(find(suite, 'modern/stdio-stdout').message).toMatch(/^1 of \d+ stdout lines were not MCP messages; first line 1: "modern-stdio: starting" \(not JSON\)$/)
    expect(quoteOf(suite, 'modern/stdio-stdout')).toBe('The server MUST NOT write anything to its stdout that is not a valid MCP message.')
  }, 60_000)

  it('a message written over several lines fails modern/stdio-stdout under "no embedded newlines"', async () => {
    const suite = await scripted('pretty-printed')
    expect(find(suite, 'modern/stdio-stdout')).toMatchObject({ status: 'fail', message: expect.stringMatching(/^1 JSON-RPC message was written with embedded newlines; the first spans stdout lines \d+–\d+/) })
    expect(quoteOf(suite, 'modern/stdio-stdout')).toBe('Messages are delimited by newlines, and MUST NOT contain embedded newlines.')
  }, 60_000)

  it('a byte that is not UTF-8 fails modern/stdio-utf8', async () => {
    const suite = await scripted('invalid-utf8')
    expect(statusOf(suite)).toEqual({ 'modern/stdio-stdout': 'pass', 'modern/stdio-utf8': 'fail', 'modern/stdio-exit-on-eof': 'pass' })
    const check = find(suite, 'modern/stdio-utf8')
    expect(check.message).toMatch(/^\d+ of \d+ stdout lines were not valid UTF-8; first line \d+: /)
    expect((check.details as { lines: Array<{ text: string }> }).lines[0]?.text).toContain('"description":"echo \uFFFD"')
  }, 60_000)

  it('a server that ignores the end of stdin warns modern/stdio-exit-on-eof, bounded by the exit grace', async () => {
    const suite = await scripted('ignore-eof')
    expect(statusOf(suite)).toEqual({ 'modern/stdio-stdout': 'pass', 'modern/stdio-utf8': 'pass', 'modern/stdio-exit-on-eof': 'warn' })
    expect(find(suite, 'modern/stdio-exit-on-eof').message).toBe('still running 500 ms after stdin closed; ended by SIGTERM')
  }, 60_000)
})

describe('the fixture', () => {
  it('has no stdio breach the tests above leave out', () => {
    expect(Object.keys(STDIO_BREACHES).sort()).toEqual(['ignore-eof', 'invalid-utf8', 'pretty-printed', 'stdout-noise'])
  })
})

describe('splitMessages', () => {
  const lines = (texts: string[], from = 1) => texts.map((text, i) => ({ line: from + i, text, reason: 'not JSON' }))

  it('joins consecutive lines into the message they spell, and no other', () => {
    const noise = [...lines(['hello']), ...lines(['{', '"jsonrpc": "2.0",', '"id": 1,', '"result": {}', '}'], 2), ...lines(['{', '"a": 1', '}'], 7)]
    expect(splitMessages(noise).map((run) => run.map((n) => n.line))).toEqual([[2, 3, 4, 5, 6]])
  })

  it('never joins lines that were not adjacent on stdout', () => {
    expect(splitMessages([...lines(['{"jsonrpc": "2.0",']), ...lines(['"id": 1, "result": {}}'], 3)])).toEqual([])
  })
})
