import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_WIRE_LOG_BYTES } from '../src/client/judge.ts'

/**
 * `judge --wire FILE` reads a file the user names: one larger than MAX_WIRE_LOG_BYTES is refused
 * unread, with one line naming the file and the limit (a harness error, exit 2), and a line that
 * is no JSON is named by its number; the kit never reads such a log whole.
 */
const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')
const work = mkdtempSync(join(tmpdir(), 'kit-wire-log-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

async function judge(file: string) {
  const child = spawn(process.execPath, [BIN, 'judge', '--wire', file, '--report-dir', join(work, 'reports')], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)))
  return { code, out }
}

describe('judge --wire, bounded', () => {
  it('refuses a wire log above the limit without reading it', async () => {
    const big = join(work, 'big.jsonl')
    // Sparse: the size is there, the bytes are not written.
    writeFileSync(big, '')
    truncateSync(big, MAX_WIRE_LOG_BYTES + 1)
    const { code, out } = await judge(big)
    expect(code, out).toBe(2)
    expect(out).toContain(`the wire log ${big} is ${MAX_WIRE_LOG_BYTES + 1} bytes, above the limit of ${MAX_WIRE_LOG_BYTES} bytes`)
  })

  it('names the line that is no JSON', async () => {
    const bad = join(work, 'bad.jsonl')
    writeFileSync(bad, `${JSON.stringify({ dir: 'recv', msg: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} } })}\nnot json\n`)
    const { code, out } = await judge(bad)
    expect(code, out).toBe(2)
    expect(out).toContain('line 2 is not JSON')
  })
})
