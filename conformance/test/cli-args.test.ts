/** The CLI: argument validation (pure), and in-process runs that write reports and pick exit codes. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, parseCommand, type Io } from '../src/cli.ts'
import type { RunReport } from '../src/model.ts'
import { writeRawStdioServer } from './server-helpers.ts'

const parse = (...argv: string[]) => parseCommand(argv, '/work')

describe('parseCommand', () => {
  it('no arguments is the built-in default, reporting to ./reports', () => {
    expect(parse()).toEqual({ ok: true, command: { kind: 'default', reportDir: '/work/reports' } })
  })

  it('server over stdio: everything after -- is the command, untouched', () => {
    const parsed = parse('server', '--report-dir', 'out', '--baseline', 'b.yaml', '--call', 'echo={"text":"a b"}', '--', 'node', 'srv.js', '--flag', '--', 'x')
    expect(parsed).toEqual({
      ok: true,
      command: {
        kind: 'server',
        target: { kind: 'stdio', command: 'node', args: ['srv.js', '--flag', '--', 'x'], cwd: '/work' },
        calls: [{ name: 'echo', arguments: { text: 'a b' } }],
        timeoutMs: 10_000,
        startupTimeoutMs: 30_000,
        reportDir: '/work/out',
        baseline: '/work/b.yaml',
      },
    })
  })

  it('server over HTTP with headers and timeouts', () => {
    const parsed = parse('server', '--url', 'http://127.0.0.1:1/mcp', '--header', 'Authorization=Bearer a=b', '--timeout', '500', '--server-name', 'mine')
    expect(parsed.ok && parsed.command).toMatchObject({ target: { kind: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer a=b' } }, timeoutMs: 500, serverName: 'mine' })
  })

  it('client options are wired through', () => {
    const parsed = parse('client', '--transport', 'http', '--scenario', 'a', '--scenario', 'b', '--update-snapshots', '--shard', '2/3')
    expect(parsed.ok && parsed.command).toMatchObject({ kind: 'client', options: { transports: ['http'], scenarioIds: ['a', 'b'], updateSnapshots: true, shard: { index: 2, count: 3 } } })
    expect(parse('client').ok && (parse('client') as { command: { options: unknown } }).command.options).toEqual({ transports: ['stdio', 'http'], scenarioIds: [], updateSnapshots: false })
  })

  it.each([
    [['bogus'], 'unknown command "bogus"'],
    [['server'], 'needs --url URL or -- COMMAND'],
    [['server', '--url', 'http://x/mcp', '--', 'node'], 'either --url or "-- COMMAND"'],
    [['server', '--url', 'ftp://x'], 'is not an http(s) URL'],
    [['server', '--call', 'echo', '--', 'n'], 'is not NAME=JSON'],
    [['server', '--call', 'echo={bad', '--', 'n'], 'not valid JSON'],
    [['server', '--call', 'echo=[1]', '--', 'n'], 'must be a JSON object'],
    [['server', '--call', 'a={}', '--call', 'a={}', '--', 'n'], 'is given twice'],
    [['server', '--header', 'x=1', '--', 'n'], '--header only applies to --url'],
    [['server', '--timeout', '0', '--', 'n'], 'positive number'],
    [['server', '--server-name', 'has space', '--', 'n'], '--server-name must match'],
    [['server', '--scenario', 'x', '--', 'n'], '--scenario is not an option of "server"'],
    [['client', '--transport', 'ws'], '--transport must be stdio, http or all'],
    [['client', '--shard', '4/3'], '--shard must be I/N'],
    [['client', '--', 'node'], '"--" is only for "server"'],
    [['client', '--nope'], "Unknown option '--nope'"],
    [['list', 'x'], '"list" takes no arguments'],
  ])('%j is a usage error: %s', (argv, fragment) => {
    const parsed = parse(...argv)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error).toContain(fragment)
  })
})

function capture(cwd: string): Io & { out: string; err: string } {
  const io = { out: '', err: '', cwd, stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t) }
  return io
}

describe('main', () => {
  let dir: string
  let script: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-cli-'))
    script = await writeRawStdioServer(dir)
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('usage errors exit 2 with the usage text on stderr; --help prints it on stdout and exits 0', async () => {
    const bad = capture(dir)
    expect(await main(['server'], bad)).toBe(2)
    expect(bad.err).toMatch(/^mcp-conformance: "server" needs --url URL/)
    expect(bad.err).toContain('Exit codes: 0 all checks pass')
    expect(bad.out).toBe('')
    const help = capture(dir)
    expect(await main(['--help'], help)).toBe(0)
    expect(help.out).toContain('mcp-conformance server [options] -- COMMAND [ARGS...]')
  })

  it('list prints one id<TAB>title per scenario on stdout', async () => {
    const io = capture(dir)
    expect(await main(['list'], io)).toBe(0)
    for (const line of io.out.split('\n').filter(Boolean)) expect(line).toMatch(/^[^\t]+\t.+$/)
  })

  it('a clean server exits 0 and writes all three reports; progress goes to stderr only', async () => {
    const io = capture(dir)
    const code = await main(['server', '--report-dir', 'clean', '--', process.execPath, script], io)
    expect(code).toBe(0)
    expect(io.out).toBe('')
    expect(io.err).toContain('✓ pass  lifecycle/initialize')
    expect(io.err).toContain('Exit code 0')
    const report = JSON.parse(await readFile(join(dir, 'clean', 'results.json'), 'utf8')) as RunReport
    expect(report).toMatchObject({ formatVersion: 1, exitCode: 0, staleBaseline: [], tool: { name: 'mcp-conformance' } })
    expect(await readFile(join(dir, 'clean', 'junit.xml'), 'utf8')).toContain('<testsuite name="server"')
    expect(await readFile(join(dir, 'clean', 'report.html'), 'utf8')).toContain('<title>MCP conformance report</title>')
  })

  it('a failure exits 1; listing it in a baseline makes it expected (0); a stale entry exits 1', async () => {
    const failing = ['server', '--report-dir', 'f', '--', process.execPath, script, '--garbage']
    expect(await main(failing, capture(dir))).toBe(1)
    await writeFile(join(dir, 'baseline.yaml'), 'expectedFailures:\n  - server:stdio/stdout-only-jsonrpc\n')
    expect(await main(['server', '--baseline', 'baseline.yaml', ...failing.slice(1)], capture(dir))).toBe(0)
    const io = capture(dir)
    expect(await main(['server', '--baseline', 'baseline.yaml', '--report-dir', 'g', '--', process.execPath, script], io)).toBe(1)
    expect(io.err).toContain('Stale baseline entries (no longer failing; remove them): server:stdio/stdout-only-jsonrpc')
  })

  it('an unreadable or invalid baseline is a usage error', async () => {
    const io = capture(dir)
    expect(await main(['server', '--baseline', 'missing.yaml', '--', process.execPath, script], io)).toBe(2)
    expect(io.err).toContain('cannot read')
  })
})
