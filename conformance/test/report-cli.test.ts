/**
 * The CLI side of the reports: --compare on the default run, client and server; a previous file
 * that cannot be used stops the run before it starts; the live progress line and colour on a
 * terminal, and plain lines without escape codes anywhere else or under NO_COLOR.
 */
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { main, parseCommand, type Io } from '../src/cli.ts'
import type { RunReport } from '../src/model.ts'

function capture(cwd: string, terminal?: { columns: number }): Io & { out: string; err: string } {
  const io = { out: '', err: '', cwd, stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t), ...(terminal ? { terminal } : {}) }
  return io
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-report-cli-'))
  await copyFile(join(import.meta.dirname, 'fixtures', 'results-current.json'), join(dir, 'previous.json'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const noColor = process.env.NO_COLOR
afterEach(() => {
  if (noColor === undefined) delete process.env.NO_COLOR
  else process.env.NO_COLOR = noColor
})

describe('--compare', () => {
  it('is an option of the default run, client and server, resolved against the working directory', () => {
    for (const argv of [['--compare', 'p.json'], ['client', '--compare', 'p.json'], ['server', '--compare', 'p.json', '--url', 'http://127.0.0.1:1/mcp']]) {
      const parsed = parseCommand(argv, '/work')
      expect(parsed.ok && 'compare' in parsed.command && parsed.command.compare).toBe('/work/p.json')
    }
    expect(parseCommand(['list', '--compare', 'p.json'], '/work')).toEqual({ ok: false, error: '--compare is not an option of "list"' })
  })

  it('a file that is missing or not a results.json is a usage error before anything runs', async () => {
    const missing = capture(dir)
    expect(await main(['client', '--scenario', 'dotted-names', '--report-dir', 'none', '--compare', 'nope.json'], missing)).toBe(2)
    expect(missing.err).toMatch(/^mcp-conformance: --compare \S+nope\.json cannot be read: ENOENT/)
    expect(missing.err).not.toContain('client scenarios')
    await expect(stat(join(dir, 'none'))).rejects.toThrow()
    const wrong = capture(dir)
    expect(await main(['client', '--report-dir', 'none', '--compare', join(import.meta.dirname, '..', 'package.json')], wrong)).toBe(2)
    expect(wrong.err).toMatch(/--compare \S+package\.json is not a results\.json of format version 1\n$/)
  })

  it('a file that is not JSON is one clean line: the parser\'s quote of it is escaped, not echoed', async () => {
    await writeFile(join(dir, 'esc-first.json'), '\u001b]52;c;cHduZWQ=\u0007\u001b[2J\n::error title=forged::from-json-error\n{}\n')
    const io = capture(dir)
    expect(await main(['client', '--report-dir', 'none', '--compare', 'esc-first.json'], io)).toBe(2)
    expect(io.err).toBe(`mcp-conformance: --compare ${join(dir, 'esc-first.json')} is not JSON (Unexpected token '\\x1b', "\\x1b]52;c;cHd"... is not valid JSON)\n`)
  })

  it('the ids of a previous run are shown as items of one line: they forge no line and no workflow command', async () => {
    const forge = 'x\n::error title=forged::forged-from-compare-file\n##[add-mask]Exit\n\u001b]52;c;cHduZWQ=\u0007\u001b[2J\r::warning::cr'
    const previous = { formatVersion: 1, suites: [{ id: `srv${forge}`, title: forge, kind: 'server', target: forge, durationMs: 1, checks: [{ id: `chk${forge}`, title: 't', message: 'm', status: 'fail' }] }], staleBaseline: [] }
    await writeFile(join(dir, 'hostile-ids.json'), JSON.stringify(previous))
    const io = capture(dir)
    await main(['client', '--scenario', 'dotted-names', '--transport', 'stdio', '--report-dir', 'hostile', '--compare', 'hostile-ids.json'], io)
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(io.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    for (const line of io.err.split('\n')) expect(line).not.toMatch(/^\s*::|##\[/)
    expect(io.err).toContain('  removed      srvx ::error title=forged::forged-from-compare-file #\\x23[add-mask]Exit \\x1b]52;c;cHduZWQ=\\x07\\x1b[2J\\r::warning::cr:chkx ')
  })

  it('a client run shows what changed in its summary and its report', async () => {
    const io = capture(dir)
    const code = await main(['client', '--scenario', 'dotted-names', '--transport', 'stdio', '--report-dir', 'out', '--compare', 'previous.json'], io)
    const report = JSON.parse(await readFile(join(dir, 'out', 'results.json'), 'utf8')) as RunReport
    expect(code).toBe(report.exitCode)
    // The previous file has a failing dotted-names expect/public-names over stdio: this run fixes it.
    expect(io.err).toMatch(/Since previous\.json: 0 new failures, 1 fixed, \d+ new checks, 9 removed, 0 other changes; 1 unchanged\n/)
    expect(io.err).toContain('  fixed        dotted-names [stdio]:expect/public-names (fail → pass)')
    expect(io.err).toContain('  new check    dotted-names [stdio]:transcript/snapshot (pass)')
    expect(io.err).toContain('  removed      server [stdio]:lifecycle/ping (was error)')
    const html = await readFile(join(dir, 'out', 'report.html'), 'utf8')
    expect(html).toContain('<h2>Since previous.json</h2>')
    expect(html).toMatch(/<h3>Fixed \(1\)<\/h3><ul><li><code>dotted-names \[stdio\]:expect\/public-names<\/code>/)
  })
})

describe('stderr on a terminal and elsewhere', () => {
  const run = async (terminal: { columns: number } | undefined) => {
    const io = capture(dir, terminal)
    await main(['client', '--scenario', 'clean-discovery', '--scenario', 'dotted-names', '--transport', 'stdio', '--report-dir', 'tty'], io)
    return io.err
  }

  it('not a terminal: one line per finished run, no carriage returns, no escape codes', async () => {
    const err = await run(undefined)
    expect(err).toContain('  ok   clean-discovery [stdio]')
    expect(err).not.toContain('\r')
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(err).not.toMatch(/\u001b/)
  })

  it('a terminal: a progress line that rewrites itself, and a coloured summary', async () => {
    delete process.env.NO_COLOR
    const err = await run({ columns: 100 })
    // The runs under way, after how many of the two are done (--jobs may run both at once).
    expect(err).toMatch(/\r\[\d+\/\d+ done\] [^\r]*clean-discovery \[stdio\]/)
    expect(err).toMatch(/\r\[\d+\/\d+ done\] [^\r]*dotted-names \[stdio\]/)
    expect(err).not.toContain('  ok   clean-discovery')
    expect(err).toContain('\u001b[32m✓\u001b[0m clean-discovery')
  })

  it('a terminal with NO_COLOR: the progress line, and no escape codes', async () => {
    process.env.NO_COLOR = '1'
    const err = await run({ columns: 100 })
    expect(err).toMatch(/\r\[\d+\/\d+ done\] [^\r]*dotted-names \[stdio\]/)
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(err).not.toMatch(/\u001b/)
    expect(err).toContain('  ✓ clean-discovery')
  })
})
