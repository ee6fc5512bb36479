/**
 * `mcp-conformance server --spec-version`: one run per revision, each negotiating it, and every
 * report showing the revisions' verdicts side by side. In-process runs of the CLI against the rule
 * server (test/fixtures/rule-server), with faults that make revisions differ:
 * - resource-link-everywhere: a resource_link block in every echo result, which 2025-03-26 does
 *   not define (so that revision fails) and later revisions do;
 * - refuse-old: initialize for anything but the newest revision is refused with -32602, so the
 *   older revisions are "not supported", and failed: the server MUST counter-offer a revision it supports.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, parseCommand, USAGE, type Io } from '../src/cli.ts'
import { codeSpan, escapeMarkdown } from '../src/report/markdown.ts'
import type { ReportWithRevisions, ServerSuite } from '../src/report/revisions.ts'
import { startRuleHttp } from './fixtures/rule-server/index.mjs'

const STDIO_SERVER = fileURLToPath(new URL('./fixtures/rule-server/stdio.mjs', import.meta.url))

interface Ran {
  code: number
  stderr: string
  report: ReportWithRevisions
  junit: string
  markdown: string
}

async function cli(dir: string, args: string[]): Promise<Ran> {
  let stderr = ''
  const io: Io = { stdout: () => {}, stderr: (text) => void (stderr += text), cwd: root }
  const md = join(dir, 'summary.md')
  const code = await main(['server', '--report-dir', dir, '--summary-md', md, '--timeout', '3000', '--call', 'echo={"text":"hi"}', '--call', 'structured={}', ...args], io)
  const report = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as ReportWithRevisions
  return { code, stderr, report, junit: await readFile(join(dir, 'junit.xml'), 'utf8'), markdown: await readFile(md, 'utf8') }
}

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-conformance-revisions-'))
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe('--spec-version all against a server whose results 2025-03-26 does not define', () => {
  let ran: Ran
  beforeAll(async () => {
    ran = await cli(join(root, 'all'), ['--spec-version', 'all', '--', process.execPath, STDIO_SERVER, 'resource-link-everywhere'])
  }, 60_000)

  it('runs the checks once per revision, oldest first, each session negotiating its revision', () => {
    const suites = ran.report.suites as ServerSuite[]
    expect(suites.map((s) => s.id)).toEqual(['server@2025-03-26', 'server@2025-06-18', 'server@2025-11-25', 'server@2026-07-28'])
    expect(suites.map((s) => s.revision)).toEqual([
      { requested: '2025-03-26', negotiated: '2025-03-26', supported: true },
      { requested: '2025-06-18', negotiated: '2025-06-18', supported: true },
      { requested: '2025-11-25', negotiated: '2025-11-25', supported: true },
      // A legacy server does not speak the modern revision: not supported, judged by nothing of it.
      { requested: '2026-07-28', supported: false },
    ])
    for (const suite of suites.slice(0, 3)) expect(suite.checks.find((c) => c.id === 'lifecycle/protocol-version')?.message).toBe(`the server agreed to the requested revision ${suite.revision!.requested}`)
    expect(ran.stderr).toContain('mcp-conformance: server checks (2025-06-18) against ')
  })

  it('fails the run when any revision fails, and only the revision that breaks its schema fails', () => {
    expect(ran.code).toBe(1)
    expect(ran.report.exitCode).toBe(1)
    expect(ran.report.revisions).toEqual([
      expect.objectContaining({ revision: '2025-03-26', suite: 'server@2025-03-26', transport: 'stdio', negotiated: '2025-03-26', supported: true, verdict: 'fail', summary: expect.objectContaining({ fail: 1 }) }),
      expect.objectContaining({ revision: '2025-06-18', verdict: 'pass', summary: expect.objectContaining({ fail: 0, warn: 0, error: 0 }) }),
      expect.objectContaining({ revision: '2025-11-25', verdict: 'pass', summary: expect.objectContaining({ fail: 0, warn: 0, error: 0 }) }),
      expect.objectContaining({ revision: '2026-07-28', supported: false, verdict: 'pass', summary: expect.objectContaining({ pass: 0, fail: 0, warn: 0, error: 0, skip: 1 }) }),
    ])
    const failed = ran.report.suites.flatMap((s) => s.checks.filter((c) => c.status === 'fail').map((c) => `${s.id}:${c.id}`))
    expect(failed).toEqual(['server@2025-03-26:tools/call/echo'])
    // Each revision's summary adds up to the run's.
    const sum = (key: 'pass' | 'fail' | 'skip') => ran.report.revisions!.reduce((n, r) => n + r.summary[key], 0)
    expect([sum('pass'), sum('fail'), sum('skip')]).toEqual([ran.report.summary.pass, ran.report.summary.fail, ran.report.summary.skip])
  })

  it('judges by each revision: rules that arrived later are skipped, naming the revision', () => {
    const check = (suite: string, id: string) => ran.report.suites.find((s) => s.id === suite)!.checks.find((c) => c.id === id)!
    expect(check('server@2025-03-26', 'tools/names-valid').message).toBe('not part of the negotiated revision 2025-03-26: the rule arrived in 2025-11-25')
    expect(check('server@2025-06-18', 'tools/call/structured/structured-content').status).toBe('pass')
    expect(check('server@2025-03-26', 'tools/call/structured/structured-content').status).toBe('skip')
    expect(check('server@2025-11-25', 'lifecycle/ping').spec?.ref).toBe('MCP 2025-11-25 ping: MUST')
    expect(check('server@2025-03-26', 'lifecycle/ping').spec?.ref).toBe('MCP 2025-03-26 ping: MUST')
  })

  it('junit.xml has one testsuite per revision, with the revision as a property', () => {
    const suites = [...ran.junit.matchAll(/<testsuite name="([^"]+)"[^>]*failures="(\d+)"/g)].map((m) => [m[1], m[2]])
    expect(suites).toEqual([
      ['server@2025-03-26', '1'],
      ['server@2025-06-18', '0'],
      ['server@2025-11-25', '0'],
      ['server@2026-07-28', '0'],
    ])
    expect(ran.junit).toContain('<property name="revision" value="2025-03-26"/>')
    expect(ran.junit).toContain('<property name="negotiated" value="2025-06-18"/>')
    expect(ran.junit).toContain('<property name="supported" value="true"/>')
  })

  it('the Markdown summary has a table of the revisions’ verdicts', () => {
    expect(ran.markdown).toContain('### By spec revision')
    expect(ran.markdown).toMatch(/\| 2025-03-26 \| stdio \| fail \| \d+ \| 1 \| 0 \| \d+ \| 0 \|/)
    expect(ran.markdown).toMatch(/\| 2025-11-25 \| stdio \| pass \| \d+ \| 0 \| 0 \| \d+ \| 0 \|/)
    expect(ran.markdown).toContain(codeSpan('server@2025-03-26:tools/call/echo'))
  })

  it('the summary on stderr shows the revisions as columns, with a verdict row', () => {
    const header = ran.stderr.split('\n').find((line) => line.includes('2025-03-26 · stdio'))
    expect(header).toMatch(/2025-03-26 · stdio\s+2025-06-18 · stdio\s+2025-11-25 · stdio\s+2026-07-28 · stdio/)
    expect(ran.stderr).toMatch(/\n {4}verdict\s+fail\s+pass\s+pass\s+not supported\n/)
    expect(ran.stderr).toMatch(/✗ fail {2}tools\/call\/echo \[2025-03-26 · stdio\] — the result breaks the 2025-03-26 CallToolResult schema/)
  })
})

describe('--spec-version all against a server that takes only the newest revision', () => {
  let ran: Ran
  beforeAll(async () => {
    const server = await startRuleHttp(['refuse-old'])
    try {
      ran = await cli(join(root, 'refuse'), ['--spec-version', 'all', '--url', server.url])
    } finally {
      await server.close()
    }
  }, 60_000)

  it('the older revisions are not supported and fail (refused with an error instead of a counter-offer), the newest passes: exit 1', () => {
    expect(ran.code).toBe(1)
    expect(ran.report.revisions?.map((r) => [r.revision, r.supported, r.verdict])).toEqual([
      ['2025-03-26', false, 'fail'],
      ['2025-06-18', false, 'fail'],
      ['2025-11-25', true, 'pass'],
      ['2026-07-28', false, 'pass'],
    ])
    const older = ran.report.suites[0]!
    expect(older.checks.map((c) => [c.id, c.status])).toEqual([
      ['lifecycle/initialize', 'skip'],
      ['lifecycle/protocol-version', 'fail'],
    ])
    expect(ran.stderr).toMatch(/\n {4}verdict\s+fail; not supported\s+fail; not supported\s+pass\s+not supported\n/)
    expect(ran.markdown).toMatch(/\| 2025-06-18 \| http \| [^|]*not supported[^|]* \| 0 \| 1 \| 0 \| 1 \| 0 \|/)
  })
})

describe('--spec-version one revision', () => {
  it('pins the run to it: one suite, server@<revision>, against a server that counter-offers a newer one (not supported, no failure)', async () => {
    const ran = await cli(join(root, 'one'), ['--spec-version', '2025-03-26', '--', process.execPath, STDIO_SERVER, '--revision', '2025-11-25'])
    expect(ran.code).toBe(0)
    expect(ran.report.suites.map((s) => s.id)).toEqual(['server@2025-03-26'])
    expect(ran.report.revisions).toEqual([expect.objectContaining({ revision: '2025-03-26', negotiated: '2025-11-25', supported: false, verdict: 'pass' })])
    expect(ran.markdown).toContain(`| 2025-03-26 | stdio | ${escapeMarkdown('not supported (offered 2025-11-25)')} |`)
  }, 60_000)

  it('without the flag, the run is as before: one suite "server", no revisions, following a counter-offer', async () => {
    const ran = await cli(join(root, 'none'), ['--', process.execPath, STDIO_SERVER, '--revision', '2025-06-18'])
    expect(ran.code).toBe(0)
    expect(ran.report.suites.map((s) => s.id)).toEqual(['server'])
    expect('revisions' in ran.report).toBe(false)
    expect(ran.report.suites[0]!.checks.find((c) => c.id === 'lifecycle/protocol-version')?.message).toBe('the server does not speak 2025-11-25 and counter-offered 2025-06-18; checks follow 2025-06-18')
    expect(ran.markdown).not.toContain('By spec revision')
  }, 60_000)
})

describe('parsing --spec-version', () => {
  const parse = (...argv: string[]) => parseCommand(argv, '/work')

  it('takes one of the four revisions, or all (oldest first); only for server', () => {
    const revisions = (argv: string[]) => {
      const parsed = parse('server', ...argv, '--', 'node', 's.js')
      return parsed.ok && parsed.command.kind === 'server' ? parsed.command.revisions : parsed
    }
    expect(revisions([])).toBeUndefined()
    expect(revisions(['--spec-version', 'all'])).toEqual(['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'])
    expect(revisions(['--spec-version', '2026-07-28'])).toEqual(['2026-07-28'])
    expect(revisions(['--spec-version', '2025-06-18'])).toEqual(['2025-06-18'])
    expect(revisions(['--spec-version', '2024-11-05'])).toEqual({ ok: false, error: '--spec-version must be 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 or all, not "2024-11-05"' })
    expect(parse('--spec-version', 'all')).toEqual({ ok: false, error: '--spec-version is not an option of the default run' })
    expect(parse('client', '--spec-version', 'all')).toEqual({ ok: false, error: '--spec-version is not an option of "client"' })
  })

  it('is in the usage text', () => {
    expect(USAGE).toContain('--spec-version V        server: judge exactly revision V (2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28),')
  })
})

