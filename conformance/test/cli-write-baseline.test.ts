/**
 * Baselines from the CLI's side: --write-baseline writes a run's failures as a file --baseline
 * reads back (reasons kept, nothing written when a check could not run), and a baseline that does
 * not exist is refused with the way to create one, as an ::error on that file under
 * --annotations github.
 */
import fc from 'fast-check'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failuresOf, formatBaseline, parseBaseline } from '../src/baseline.ts'
import { main, type Io } from '../src/cli.ts'
import type { SuiteResult } from '../src/model.ts'
import { writeRawStdioServer } from './server-helpers.ts'

function capture(cwd: string): Io & { out: string; err: string } {
  const io = { out: '', err: '', cwd, stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t) }
  return io
}

describe('formatBaseline', () => {
  it('writes every failure once, sorted, reasons kept; it parses back to the same entries', () => {
    const suites: SuiteResult[] = [
      { id: 'server', title: 's', kind: 'server', target: 't', durationMs: 0, checks: [
        { id: 'tools/b', title: 'b', status: 'fail', message: 'm' },
        { id: 'tools/a', title: 'a', status: 'fail', message: 'm', expected: true },
        { id: 'tools/w', title: 'w', status: 'warn', message: 'm' },
        { id: 'tools/e', title: 'e', status: 'error', message: 'm' },
      ] },
      { id: 'crash', title: 'c', kind: 'client', target: 't', transport: 'stdio', durationMs: 0, checks: [{ id: 'x', title: 'x', status: 'fail', message: 'm' }] },
      { id: 'crash', title: 'c', kind: 'client', target: 't', transport: 'http', durationMs: 0, checks: [{ id: 'x', title: 'x', status: 'fail', message: 'm' }] },
    ]
    const entries = failuresOf(suites, [{ id: 'server:tools/a', reason: 'tracked in #1' }, { id: 'server:gone', reason: 'stale' }])
    expect(entries).toEqual([{ id: 'crash:x' }, { id: 'server:tools/a', reason: 'tracked in #1' }, { id: 'server:tools/b' }])
    const text = formatBaseline(entries, 'Written by test')
    expect(text).toMatch(/^# Written by test: the 3 checks that failed\./)
    expect(parseBaseline(text)).toEqual({ ok: true, entries })
  })

  it('any id a server can put in a check id (a tool name) round-trips literally', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), { maxLength: 5 }), (names) => {
        const entries = [...new Set(names)].map((name) => ({ id: `server:tools/call/${name}` }))
        expect(parseBaseline(formatBaseline(entries, 'x'))).toEqual({ ok: true, entries })
      }),
    )
  })
})

describe('--write-baseline and a missing --baseline', () => {
  let dir: string
  let script: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-write-baseline-'))
    script = await writeRawStdioServer(dir)
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('writes the failures of a run; the exit code stays the run\'s; with that baseline the next run passes', async () => {
    const failing = (...options: string[]) => ['server', '--report-dir', 'r', ...options, '--', process.execPath, script, '--garbage']
    const io = capture(dir)
    expect(await main(failing('--write-baseline', 'written.yaml'), io)).toBe(1)
    expect(io.err).toContain('\nBaseline: written.yaml lists 1 failure; run with --baseline written.yaml to accept them\n')
    const text = await readFile(join(dir, 'written.yaml'), 'utf8')
    expect(parseBaseline(text)).toEqual({ ok: true, entries: [{ id: 'server:stdio/stdout-only-jsonrpc' }] })
    expect(await main(failing('--baseline', 'written.yaml'), capture(dir))).toBe(0)
  })

  it('the same file as --baseline and --write-baseline: created when missing, then kept up to date with its reasons', async () => {
    const args = ['server', '--report-dir', 'r2', '--baseline', 'own.yaml', '--write-baseline', 'own.yaml', '--', process.execPath, script, '--garbage']
    expect(await main(args, capture(dir))).toBe(1) // judged by the empty baseline it starts from
    expect(await main(args, capture(dir))).toBe(0)
    await writeFile(join(dir, 'own.yaml'), 'expectedFailures:\n  - id: server:stdio/stdout-only-jsonrpc\n    reason: "our logger, tracked in #7"\n  - server:tools/gone\n')
    expect(await main(args, capture(dir))).toBe(1) // the stale entry fails this run, and is left out of the file
    expect(parseBaseline(await readFile(join(dir, 'own.yaml'), 'utf8'))).toEqual({ ok: true, entries: [{ id: 'server:stdio/stdout-only-jsonrpc', reason: 'our logger, tracked in #7' }] })
    expect(await main(args, capture(dir))).toBe(0)
  })

  it('nothing is written when a check could not run: its failures are not known', async () => {
    const io = capture(dir)
    expect(await main(['server', '--report-dir', 'r3', '--write-baseline', 'none.yaml', '--', join(dir, 'no-such-command')], io)).toBe(2)
    expect(io.err).toContain(`mcp-conformance: no baseline written to ${join(dir, 'none.yaml')}: 1 check could not run, so the failures are not all known\n`)
    await expect(readFile(join(dir, 'none.yaml'))).rejects.toThrow(/ENOENT/)
  })

  it('a missing baseline is refused before the run, with how to create it; under --annotations github as an ::error on that file', async () => {
    const io = capture(dir)
    expect(await main(['server', '--report-dir', 'r4', '--annotations', 'github', '--baseline', 'ci/missing.yaml', '--', process.execPath, script], io)).toBe(2)
    const message = 'baseline ci/missing.yaml does not exist: create it from a run\'s failures by adding --write-baseline ci/missing.yaml to this command once, or start from a file holding "expectedFailures: []"'
    expect(io.out).toBe(`::error file=ci/missing.yaml,title=mcp-conformance baseline::${message}\n`)
    expect(io.err).toBe(`mcp-conformance: ${message}\n`)
    await expect(readFile(join(dir, 'r4', 'results.json'))).rejects.toThrow(/ENOENT/)
    // An invalid one names its file too.
    await writeFile(join(dir, 'bad.yaml'), 'expectedFailures:\n  - server: tools/x\n')
    const bad = capture(dir)
    expect(await main(['server', '--annotations', 'github', '--baseline', 'bad.yaml', '--', process.execPath, script], bad)).toBe(2)
    expect(bad.out).toMatch(/^::error file=bad\.yaml,title=mcp-conformance baseline::baseline .*bad\.yaml: expectedFailures\[0\]: did you mean "server:tools\/x"\?/)
  })
})
