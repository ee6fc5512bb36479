/**
 * A server's secrets reach no report and no terminal in part: text is redacted before it is cut,
 * and the serverName the projection derives comes from the redacted serverInfo.name.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli.ts'
import { defaultServerName } from '../src/server/evaluate/projection.ts'

const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd'
// The key starts at character 70 of the noise line, so a cut at 80 splits it; the name glues a key to a word with "_".
const SERVER = String.raw`
const KEY = ${JSON.stringify(KEY)}
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n')
process.stdout.write('debug: ' + 'x'.repeat(62) + KEY + ' more\n')
let buf = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); if (line.trim()) handle(JSON.parse(line)) } })
process.stdin.on('end', () => process.exit(0))
function handle(m) {
  if (m.id === undefined) return
  const r = (result) => out({ jsonrpc: '2.0', id: m.id, result })
  if (m.method === 'initialize') return r({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'leak ' + KEY, version: '1' } })
  if (m.method === 'ping') return r({})
  if (m.method === 'tools/list') return r({ tools: [{ name: 'echo', description: 'e', inputSchema: { type: 'object' } }] })
  out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } })
}
`

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-secrets-'))
  await writeFile(join(dir, 'server.mjs'), SERVER)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Any 6 characters of the key's random part after its prefix: a part of the key. */
const PART = /sk-proj-[A-Za-z0-9]{4,}/

describe('secrets in a server’s text', () => {
  it('no part of a key reaches stderr, stdout or any report file', async () => {
    const io = { out: '', err: '', cwd: dir, stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t) }
    const reports = join(dir, 'reports')
    await main(['server', '--report-dir', reports, '--summary-md', join(dir, 'summary.md'), '--', process.execPath, join(dir, 'server.mjs')], io)
    expect(io.err).toContain('stdio/stdout-only-jsonrpc')
    expect(io.err).not.toMatch(PART)
    expect(io.out).not.toMatch(PART)
    for (const file of await readdir(reports)) expect(await readFile(join(reports, file), 'utf8'), file).not.toMatch(PART)
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).not.toMatch(PART)
  }, 60_000)

  it('the serverName for the projection is derived from the redacted name', () => {
    expect(defaultServerName(`leak ${KEY}`)).not.toMatch(/AbCdEf/)
  })
})
