import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

/**
 * The source of a scripted stdio server for tests: it reads newline-delimited JSON-RPC, skips lines
 * that are no JSON and messages that are no request, answers each request with `reply` (a JS
 * expression over `message` that gives `{ result }` or `{ error }`) under the request's id, and
 * exits when stdin ends. `preamble` runs first (to read its arguments, say).
 */
export function lineServerSource(preamble: string, reply: string): string {
  return `${preamble}
let buffer = ''
process.stdin.on('data', (chunk) => {
  buffer += chunk
  let newline
  while ((newline = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, newline)
    buffer = buffer.slice(newline + 1)
    let message
    try { message = JSON.parse(line) } catch { continue }
    if (message.id === undefined || message.method === undefined) continue
    const reply = ${reply}
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply }) + '\\n')
  }
})
process.stdin.on('end', () => process.exit(0))
`
}

/**
 * Writes `source` to a temp file before the tests of the calling file and removes it after them;
 * returns the file's path, for the test's `runServerSuite` target.
 */
export function lineServerFile(source: string): () => string {
  let dir: string | undefined
  let script = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-line-server-'))
    script = join(dir, 'server.mjs')
    await writeFile(script, source)
  })
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined))
  return () => script
}
