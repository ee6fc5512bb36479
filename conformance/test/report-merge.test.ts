/**
 * --merge LABEL=FILE: another run's suites (the client scenarios in another host, say) stand beside
 * this run's in one report, under their label, with the expected failures their own baseline
 * gave them; their stale entries and unexpected failures fail this run too.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, parseCommand, type Io } from '../src/cli.ts'
import type { RunReport } from '../src/model.ts'

function capture(cwd: string): Io & { out: string; err: string } {
  const io = { out: '', err: '', cwd, stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t) }
  return io
}

let dir: string
let other: RunReport
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-merge-'))
  // The "other host": a real run of one scenario, written where a second run can merge it.
  expect(await main(['client', '--scenario', 'dotted-names', '--transport', 'stdio', '--report-dir', 'other'], capture(dir))).toBe(0)
  other = JSON.parse(await readFile(join(dir, 'other', 'results.json'), 'utf8')) as RunReport
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Writes a variant of the other run and merges it into a run of dotted-names (one era, one transport: one suite). */
async function mergeVariant(name: string, change: (report: RunReport) => void): Promise<{ code: number; report: RunReport; io: ReturnType<typeof capture> }> {
  const variant = structuredClone(other)
  change(variant)
  await writeFile(join(dir, `${name}.json`), JSON.stringify(variant))
  const io = capture(dir)
  const code = await main(['client', '--scenario', 'dotted-names', '--transport', 'stdio', '--report-dir', name, '--merge', `dsh=${name}.json`], io)
  const report = code === 2 && !io.err.includes('wrote') ? (undefined as unknown as RunReport) : (JSON.parse(await readFile(join(dir, name, 'results.json'), 'utf8')) as RunReport)
  return { code, report, io }
}

describe('--merge', () => {
  it('is LABEL=FILE with a short lowercase label, once per label, on every run command', () => {
    expect(parseCommand(['client', '--merge', 'dsh=r.json'], '/w')).toMatchObject({ ok: true, command: { merge: [{ label: 'dsh', path: '/w/r.json' }] } })
    expect(parseCommand(['--merge', 'a=x.json', '--merge', 'b=y.json'], '/w')).toMatchObject({ ok: true, command: { kind: 'default', merge: [{ label: 'a' }, { label: 'b' }] } })
    expect(parseCommand(['client', '--merge', 'r.json'], '/w')).toEqual({ ok: false, error: '--merge "r.json" is not LABEL=FILE (for example dsh=reports-dsh/results.json)' })
    expect(parseCommand(['client', '--merge', 'DSH=r.json'], '/w')).toEqual({ ok: false, error: '--merge label "DSH" must be 1-32 of a-z 0-9 - (for example dsh)' })
    expect(parseCommand(['client', '--merge', 'a=x', '--merge', 'a=y'], '/w')).toEqual({ ok: false, error: '--merge label "a" is given twice' })
    expect(parseCommand(['list', '--merge', 'a=x'], '/w')).toEqual({ ok: false, error: '--merge is not an option of "list"' })
  })

  it('puts the other run\'s suites beside this run\'s, labelled, in results.json and report.html', async () => {
    const { code, report } = await mergeVariant('plain', () => {})
    expect(code).toBe(0)
    expect(report.suites.map((s) => s.id)).toEqual(['dotted-names', 'dsh/dotted-names'])
    expect(report.suites[1]?.checks).toEqual(other.suites[0]?.checks)
    const html = await readFile(join(dir, 'plain', 'report.html'), 'utf8')
    expect(html).toContain('dsh/dotted-names')
  })

  it('keeps the expected failures of the other run\'s baseline, and fails on its unexpected ones', async () => {
    const fail = (expected: boolean) => (report: RunReport) => {
      const check = report.suites[0]!.checks.find((c) => c.id === 'expect/public-names')!
      Object.assign(check, { status: 'fail', message: 'differs in that host', ...(expected ? { expected: true } : {}) })
    }
    const explained = await mergeVariant('explained', fail(true))
    expect(explained.code).toBe(0)
    expect(explained.report.summary.fail).toBe(1)
    const unexplained = await mergeVariant('unexplained', fail(false))
    expect(unexplained.code).toBe(1)
  })

  it('carries the other run\'s stale baseline entries, labelled, and fails on them', async () => {
    const { code, report } = await mergeVariant('stale', (r) => void (r.staleBaseline = ['dotted-names:expect/tools']))
    expect(report.staleBaseline).toEqual(['dsh/dotted-names:expect/tools'])
    expect(code).toBe(1)
  })

  it('redacts what the other run says, like anything it reports', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`
    const { report } = await mergeVariant('secret', (r) => void (r.suites[0]!.checks[0]!.message = `leaked ${token}`))
    expect(JSON.stringify(report)).not.toContain(token)
  })

  it('refuses, before the run, a file that is not a results.json it can show', async () => {
    const bad = await mergeVariant('bad', (r) => void ((r.suites[0]!.checks[0] as { status: string }).status = 'bogus'))
    expect(bad.code).toBe(2)
    expect(bad.io.err).toMatch(/^mcp-conformance: --merge dsh=\S+bad\.json has suites without ids or checks of a known status: suites\[0\]\.checks\[0\]\.status is not one of pass, fail, warn, skip, error\n$/)
    // A failure dressed as expected with a truthy non-boolean is refused too, not hidden.
    const hidden = await mergeVariant('hidden', (r) => void Object.assign(r.suites[0]!.checks[0]!, { status: 'fail', expected: 'no' }))
    expect(hidden.code).toBe(2)
    expect(hidden.io.err).toMatch(/^mcp-conformance: --merge dsh=\S+hidden\.json cannot be merged: suites\[0\]\.checks\[0\]\.expected is not a boolean or absent \(suite "dotted-names"\)\n$/)
    const injected = await mergeVariant('injected', (r) => void Object.assign(r.suites[0]!, { transport: 'http | [x](javascript:alert(1))' }))
    expect(injected.code).toBe(2)
    const io = capture(dir)
    expect(await main(['client', '--scenario', 'clean-discovery', '--report-dir', 'none', '--merge', 'dsh=missing.json'], io)).toBe(2)
    expect(io.err).toMatch(/--merge dsh=\S+missing\.json cannot be read: ENOENT/)
  })

  it('refuses, before the run and in one line naming the file and the field, every shape the reports could not read', async () => {
    const cases: Array<[string, (r: RunReport) => void, string]> = [
      ['specnum', (r) => void (r.suites[0]!.checks[0]!.spec = { ref: 5 as unknown as string }), 'suites[0].checks[0].spec.ref is not a string'],
      ['spec-array', (r) => void (r.suites[0]!.checks[0]!.spec = [] as never), 'suites[0].checks[0].spec is not an object or absent'],
      ['transcript', (r) => void (r.suites[0]!.transcript = {} as never), 'suites[0].transcript.text is not a string'],
      ['events', (r) => void (r.suites[0]!.transcript!.events = [{ at: 1, kind: 'step', step: 1, text: 5 }] as never), 'suites[0].transcript.events[0].text is not a string'],
      ['kind', (r) => void (r.suites[0]!.transcript!.events = [{ at: 1, kind: 'toString' }] as never), 'suites[0].transcript.events[0].kind is not one of message, process, step, log, omitted'],
      ['at', (r) => void (r.suites[0]!.transcript!.events = [{ at: '1', kind: 'log', text: 'x' }] as never), 'suites[0].transcript.events[0].at is not a number'],
      ['wire', (r) => void (r.suites[0]!.checks[0]!.wire = 'x' as never), 'suites[0].checks[0].wire is not an array or absent'],
      ['revision', (r) => void Object.assign(r.suites[0]!, { revision: { requested: 1 } }), 'suites[0].revision.requested is not a string'],
      ['stale', (r) => void (r.staleBaseline = [{}] as never), 'staleBaseline is not an array of strings'],
    ]
    for (const [name, change, field] of cases) {
      const { code, io } = await mergeVariant(name, change)
      expect(code, name).toBe(2)
      expect(io.err, name).toBe(`mcp-conformance: --merge dsh=${join(dir, `${name}.json`)} cannot be merged: ${field}${field.startsWith('suites') ? ' (suite "dotted-names")' : ''}\n`)
    }
  })

  it('redacts the citations of the other run too: they are its text, not the kit\'s', async () => {
    const secrets = ['ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGh', 'AKIAQWERTYUIOPASDFGH']
    const { code } = await mergeVariant('spec-secret', (r) => void (r.suites[0]!.checks[0]!.spec = { ref: `ref ${secrets[0]}`, url: `https://x/?token=${secrets[1]}`, keyword: 'MUST', quote: secrets[2]! }))
    expect(code).toBe(0)
    for (const file of ['results.json', 'junit.xml', 'report.html']) {
      const text = await readFile(join(dir, 'spec-secret', file), 'utf8')
      for (const secret of secrets) expect(text, file).not.toContain(secret)
    }
  })

  it('bounds each string of the other run before redacting it, as a live run bounds what a server says', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`
    const { code, report } = await mergeVariant('big', (r) => void (r.suites[0]!.checks[0]!.message = `${token} ${'A'.repeat(1_000_000)}`))
    expect(code).toBe(0)
    const message = report.suites[1]!.checks[0]!.message
    expect(message.length).toBeLessThanOrEqual(65_537)
    expect(message).not.toContain(token)
  })

  it('writes the other run\'s ids, targets and stale entries to stderr as items of one line each, forging no line and no workflow command', async () => {
    const forge = 'x\n::error title=forged::forged\n##[add-mask]y\n\u001b]52;c;cHduZWQ=\u0007\r::warning::cr'
    const { io } = await mergeVariant('forge', (r) => {
      Object.assign(r.suites[0]!, { id: `dotted${forge}`, target: forge, title: forge })
      Object.assign(r.suites[0]!.checks[0]!, { id: `expect/${forge}`, status: 'fail', message: forge })
      r.staleBaseline = [forge]
    })
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(io.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    for (const line of io.err.split('\n')) expect(line).not.toMatch(/^\s*::|##\[/)
    expect(io.err).toContain('Stale baseline entries (no longer failing; remove them): dsh/x ::error title=forged::forged #\\x23[add-mask]y \\x1b]52;c;cHduZWQ=\\x07\\r::warning::cr')
  })
})
