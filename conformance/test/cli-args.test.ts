/** The CLI: argument validation (pure), and in-process runs that write reports and pick exit codes. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, parseCommand, type Io } from '../src/cli.ts'
import type { RunReport } from '../src/model.ts'
import { writeRawStdioServer } from './server-helpers.ts'

const parse = (...argv: string[]) => parseCommand(argv, '/work')

const RUN_DEFAULTS = { reportDir: '/work/reports', annotations: 'none', merge: [] }
const TIMER_MAX = 2 ** 31 - 1

describe('parseCommand', () => {
  it('no arguments is the built-in default: every transport, default timeouts, reporting to ./reports', () => {
    expect(parse()).toEqual({ ok: true, command: { kind: 'default', transports: ['stdio', 'http'], timeoutMs: 10_000, startupTimeoutMs: 30_000, ...RUN_DEFAULTS } })
  })

  it('the default run takes the run options, --transport and the timeouts', () => {
    const parsed = parse('--report-dir', 'out', '--baseline', 'b.yaml', '--summary-md', 'sum/summary.md', '--annotations', 'github', '--transport', 'stdio', '--timeout', '500', '--startup-timeout', String(TIMER_MAX))
    expect(parsed).toEqual({
      ok: true,
      command: { kind: 'default', transports: ['stdio'], timeoutMs: 500, startupTimeoutMs: TIMER_MAX, reportDir: '/work/out', baseline: '/work/b.yaml', summaryMd: '/work/sum/summary.md', annotations: 'github', merge: [] },
    })
  })

  it('--help, -h, help and --version win wherever they are; after a command, or as `help COMMAND`, the help is that command\'s', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['--report-dir', 'x', '-h']]) expect(parse(...argv)).toEqual({ ok: true, command: { kind: 'help' } })
    for (const argv of [['server', '--help'], ['help', 'server'], ['server', '--url', 'x', '-h']]) expect(parse(...argv)).toEqual({ ok: true, command: { kind: 'help', topic: 'server' } })
    expect(parse('client', '--report-dir', 'x', '-h')).toEqual({ ok: true, command: { kind: 'help', topic: 'client' } })
    expect(parse('help', 'bogus')).toEqual({ ok: false, error: 'no help page for "bogus": use help server, client, judge or list (or --help for all)' })
    expect(parse('bogus', '--help')).toMatchObject({ ok: false, error: expect.stringContaining('unknown command "bogus"') })
    expect(parse('--version')).toEqual({ ok: true, command: { kind: 'version' } })
    expect(parse('server', '--version')).toEqual({ ok: true, command: { kind: 'version' } })
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
        annotations: 'none',
        merge: [],
      },
    })
  })

  it('server over HTTP with headers, timeouts, a Markdown summary and annotations', () => {
    const parsed = parse('server', '--url', 'http://127.0.0.1:1/mcp', '--header', 'Authorization=Bearer a=b', '--timeout', '500', '--server-name', 'mine', '--summary-md', 's.md', '--annotations', 'github')
    expect(parsed.ok && parsed.command).toMatchObject({ target: { kind: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer a=b' } }, timeoutMs: 500, serverName: 'mine', summaryMd: '/work/s.md', annotations: 'github' })
  })

  it('client options are wired through, the run options too', () => {
    const parsed = parse('client', '--transport', 'http', '--scenario', 'a', '--scenario', 'b', '--update-snapshots', '--shard', '2/3', '--summary-md', 's.md')
    expect(parsed.ok && parsed.command).toMatchObject({ kind: 'client', summaryMd: '/work/s.md', options: { transports: ['http'], scenarioIds: ['a', 'b'], updateSnapshots: true, shard: { index: 2, count: 3 } } })
    expect(parse('client').ok && (parse('client') as { command: { options: unknown } }).command.options).toEqual({ transports: ['stdio', 'http'], scenarioIds: [], updateSnapshots: false })
  })

  it.each([
    [['bogus'], 'unknown command "bogus": use server, client, judge or list'],
    [['default'], 'unknown command "default"'],
    [['constructor'], 'unknown command "constructor"'],
    [['--report-dir'], '--report-dir needs a value'],
    [['--report-dir', '--baseline', 'x'], '--report-dir needs a value (write --report-dir=VALUE'],
    [['--report-dir', ''], '--report-dir needs a value'],
    [['--nope'], 'unknown option --nope'],
    [['--update-snapshots=yes', 'client'], '--update-snapshots takes no value'],
    [['--url', 'http://x/mcp'], '--url is not an option of the default run'],
    [['--scenario', 'x'], '--scenario is not an option of the default run'],
    [['--transport', 'ws'], '--transport must be stdio, http or all, not "ws"'],
    [['--timeout', '0'], '--timeout must be a whole number from 1 to 2147483647 (milliseconds), not "0"'],
    [['--timeout', String(TIMER_MAX + 1)], 'not "2147483648"'],
    [['--annotations', 'gitlab'], '--annotations must be github or none, not "gitlab"'],
    [['--', 'node'], '"--" is only for "server"'],
    [['server'], 'needs --url URL or -- COMMAND'],
    [['server', 'extra', '--', 'n'], 'unexpected argument "extra"'],
    [['server', '--url', 'http://x/mcp', '--', 'node'], 'either --url or "-- COMMAND"'],
    [['server', '--url', 'ftp://x'], 'is not an http(s) URL'],
    [['server', '--call', 'echo', '--', 'n'], 'is not NAME=JSON'],
    [['server', '--call', 'echo={bad', '--', 'n'], 'not valid JSON'],
    [['server', '--call', 'echo=[1]', '--', 'n'], 'must be a JSON object'],
    [['server', '--call', 'a={}', '--call', 'a={}', '--', 'n'], 'is given twice'],
    [['server', '--header', 'x=1', '--', 'n'], '--header only applies to --url'],
    [['server', '--timeout', '1e3', '--', 'n'], '--timeout must be a whole number'],
    [['server', '--startup-timeout', '-5', '--', 'n'], '--startup-timeout needs a value'],
    [['server', '--startup-timeout', '99999999999', '--', 'n'], '--startup-timeout must be a whole number from 1 to 2147483647'],
    [['server', '--server-name', 'has space', '--', 'n'], '--server-name must match'],
    [['server', '--scenario', 'x', '--', 'n'], '--scenario is not an option of "server"'],
    [['server', '--transport', 'stdio', '--', 'n'], '--transport is not an option of "server"'],
    [['client', '--timeout', '5'], '--timeout is not an option of "client"'],
    [['client', '--transport', 'ws'], '--transport must be stdio, http or all'],
    [['client', '--shard', '4/3'], '--shard must be I/N'],
    [['client', '--', 'node'], '"--" is only for "server"'],
    [['client', '--nope'], 'unknown option --nope'],
    [['list', 'x'], 'unexpected argument "x"'],
    [['list', '--report-dir', 'x'], '--report-dir is not an option of "list"'],
  ])('%j is a usage error: %s', (argv, fragment) => {
    const parsed = parse(...argv)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) {
      expect(parsed.error).toContain(fragment)
      expect(parsed.error).not.toContain('\n')
    }
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

  it('a usage error exits 2 with one line of reason and a pointer to --help; --help and --version print on stdout and exit 0', async () => {
    const bad = capture(dir)
    expect(await main(['--report-dir', 'x', '--call', 'a={}'], bad)).toBe(2)
    expect(bad.err).toBe('mcp-conformance: --call is not an option of the default run\nrun `mcp-conformance --help` for usage\n')
    expect(bad.out).toBe('')
    const help = capture(dir)
    expect(await main(['--help'], help)).toBe(0)
    expect(help.out).toContain('mcp-conformance server [run options] [server options] -- COMMAND [ARGS...]')
    expect(help.err).toBe('')
    const version = capture(dir)
    expect(await main(['--version'], version)).toBe(0)
    const { version: expected } = JSON.parse(await readFile(join(import.meta.dirname, '../package.json'), 'utf8')) as { version: string }
    expect(version.out).toBe(`mcp-conformance ${expected}\n`)
  })

  it('every option the parser knows is in the usage text', async () => {
    const help = capture(dir)
    await main(['--help'], help)
    const source = await readFile(join(import.meta.dirname, '../src/cli/parse.ts'), 'utf8')
    const options = [...source.slice(source.indexOf('const OPTIONS'), source.indexOf('} as const')).matchAll(/^\s+'?([a-z-]+)'?: \{ type/gm)].map((m) => m[1])
    expect(options.length).toBeGreaterThan(10)
    for (const option of options) expect(help.out).toContain(`--${option}`)
  })

  it('--summary-md writes the Markdown summary and --annotations github prints annotations on stdout', async () => {
    const io = capture(dir)
    const code = await main(['server', '--report-dir', 'md', '--summary-md', 'md/nested/summary.md', '--annotations', 'github', '--', process.execPath, script, '--garbage'], io)
    expect(code).toBe(1)
    const report = JSON.parse(await readFile(join(dir, 'md', 'results.json'), 'utf8')) as RunReport
    const markdown = await readFile(join(dir, 'md', 'nested', 'summary.md'), 'utf8')
    expect(markdown).toMatch(/^## ❌ MCP conformance: failed\n\nExit code 1: 1 check failed that the baseline does not expect\./)
    expect(markdown).toContain(`| ${report.summary.pass} | ${report.summary.fail} | ${report.summary.warn} | ${report.summary.skip} | ${report.summary.error} |`)
    // The count of lines depends on how many probes the run makes; the two stray lines do not.
    expect(markdown).toMatch(/\| fail \| `server:stdio\/stdout-only-jsonrpc` \| 2 of \d+ stdout lines were not MCP messages/)
    expect(io.out).toMatch(/^::error title=mcp-conformance server%3Astdio\/stdout-only-jsonrpc::/m)
    expect(io.out.split('\n').filter(Boolean).every((line) => line.startsWith('::'))).toBe(true)
    expect(io.err).toContain(join(dir, 'md', 'nested', 'summary.md'))
  })

  it('without --annotations nothing reaches stdout; an unwritable --summary-md exits 2', async () => {
    await writeFile(join(dir, 'a-file'), '')
    const io = capture(dir)
    expect(await main(['server', '--report-dir', 'nomd', '--summary-md', 'a-file/summary.md', '--', process.execPath, script], io)).toBe(2)
    expect(io.out).toBe('')
    expect(io.err).toContain(`cannot write the Markdown summary to ${join(dir, 'a-file', 'summary.md')}`)
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
    expect(io.err).toBe('mcp-conformance: baseline missing.yaml does not exist: create it from a run\'s failures by adding --write-baseline missing.yaml to this command once, or start from a file holding "expectedFailures: []"\n')
    await writeFile(join(dir, 'invalid.yaml'), 'expectedFailures: 5\n')
    const invalid = capture(dir)
    expect(await main(['server', '--baseline', 'invalid.yaml', '--', process.execPath, script], invalid)).toBe(2)
    expect(invalid.err).toBe(`mcp-conformance: baseline ${join(dir, 'invalid.yaml')}: "expectedFailures" must be a list\n`)
  })
})
