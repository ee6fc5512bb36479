/** The CI outputs of the CLI: the Markdown summary (--summary-md) and GitHub annotations (--annotations github). Pure. */
import { escapeControls } from '@mcp-bridge/process'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CheckResult, RunReport } from '../src/model.ts'
import { escapeData, escapeProperty, formatGithubAnnotations } from '../src/report/annotations.ts'
import { codeSpan, escapeMarkdown, formatMarkdownSummary } from '../src/report/markdown.ts'
import { HOSTILE, hostileReport } from './report-fixture.ts'

/** A report with these checks in one server suite; the summary and exit code follow from them. */
function reportOf(checks: CheckResult[], staleBaseline: string[] = [], exitCode: RunReport['exitCode'] = 0): RunReport {
  const summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 }
  for (const check of checks) summary[check.status]++
  return {
    ...hostileReport(),
    suites: [{ id: 'server', title: 'Server checks', kind: 'server', target: 'node x.js', transport: 'stdio', durationMs: 5, checks }],
    summary,
    staleBaseline,
    exitCode,
  }
}
const check = (id: string, status: CheckResult['status'], message = `${id} message`, expected?: boolean): CheckResult => ({ id, title: id, status, message, ...(expected ? { expected } : {}) })

/** The lines of the non-passing table, without its header. */
function tableRows(markdown: string): string[] {
  const lines = markdown.split('\n')
  const start = lines.indexOf('| --- | --- | --- |')
  if (start < 0) return []
  const end = lines.indexOf('', start)
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

describe('formatMarkdownSummary', () => {
  it('exit 0: the headline says passed, counts every status, and shows expected failures as such', () => {
    const md = formatMarkdownSummary(reportOf([check('a/ok', 'pass'), check('a/known', 'fail', 'known bug', true), check('a/should', 'warn'), check('a/na', 'skip')]))
    expect(md.split('\n').slice(0, 3)).toEqual(['## ✅ MCP conformance: passed', '', 'Exit code 0: every check passed, apart from 1 failure the baseline expects; warnings and skips are allowed.'])
    expect(md).toContain('| passed | failed | warnings | skipped | errors |\n| ---: | ---: | ---: | ---: | ---: |\n| 1 | 1 (1 expected by the baseline) | 1 | 1 | 0 |\n')
    // Worst first: warnings, then what the baseline accepts; skips and passes are counted, not listed.
    expect(tableRows(md)).toEqual(['| warn | `server:a/should` | a/should message |', '| fail (expected by the baseline) | `server:a/known` | known bug |'])
    expect(md).toContain('\n1 skipped check is not listed (each says why in report.html).\n')
    expect(md).not.toContain('a/na')
    const clean = formatMarkdownSummary(reportOf([check('a/ok', 'pass'), check('a/na', 'skip'), check('a/nb', 'skip')]))
    expect(clean).not.toContain('need a look')
    expect(clean).toContain('\n2 skipped checks are not listed')
    // Every check skipped: exit 0, and the headline says nothing was judged.
    const nothing = formatMarkdownSummary(reportOf([check('a/na', 'skip'), check('a/nb', 'skip')]))
    expect(nothing.split('\n')[2]).toBe('Exit code 0, but nothing was judged: 2 checks were skipped (each says why).')
  })

  it('exit 1 and 2: the headline and sentence say what the code means for this run', () => {
    const failed = formatMarkdownSummary(reportOf([check('a/x', 'fail'), check('a/y', 'fail'), check('a/z', 'fail', 'ok', true)], ['server:a/gone', 'server:a/old'], 1))
    expect(failed).toMatch(/^## ❌ MCP conformance: failed\n\nExit code 1: 2 checks failed that the baseline does not expect, and 2 baseline entries are stale\.\n/)
    expect(failed).toContain('Stale baseline entries (they no longer fail; remove them): server:a/gone, server:a/old')
    expect(formatMarkdownSummary(reportOf([check('a/z', 'fail', 'ok', true)], ['server:a/gone'], 1))).toContain('Exit code 1: 1 baseline entry is stale.')
    const broken = formatMarkdownSummary(reportOf([check('a/x', 'fail'), check('harness/run', 'error', 'could not run: spawn ENOENT')], [], 2))
    expect(broken).toMatch(/^## ⚠️ MCP conformance: could not run\n\nExit code 2: 1 check could not run \(a harness error/)
    expect(tableRows(broken)[0]).toBe('| error | `server:harness/run` | could not run: spawn ENOENT |')
  })

  it('client suites name their transport; rows beyond maxRows are counted, not listed', () => {
    const report = reportOf([check('a', 'warn'), check('b', 'warn'), check('c', 'warn')])
    report.suites[0] = { ...report.suites[0]!, id: 'dotted-names', kind: 'client', transport: 'http' }
    const md = formatMarkdownSummary(report, { maxRows: 2 })
    expect(tableRows(md)).toEqual(['| warn | `dotted-names:a` (http) | a message |', '| warn | `dotted-names:b` (http) | b message |'])
    expect(md).toContain('…and 1 more; report.html lists every check.')
  })

  it('hostile server strings stay literal text: no HTML, no table break, no line break, bounded', () => {
    const md = formatMarkdownSummary(hostileReport(), { maxMessage: 40 })
    for (const row of tableRows(md)) {
      // Exactly the three cells: every | inside a cell is escaped.
      const cells = row.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim())
      expect(cells).toHaveLength(3)
      // The check is one code span; the message opens nothing: no tag, entity, code, emphasis or link.
      expect(cells[1]).toMatch(/^(`+) ?[^`]*(?:`(?!\1)[^`]*)* ?\1(?: \(\w+\))?$/)
      expect(cells[2]).not.toMatch(/(?<!\\)[<&`*_~[$]/)
    }
    expect(md).toContain('| error | `server:harness/unexpected` | boom second line |')
    const long = formatMarkdownSummary(reportOf([check('a/x', 'warn', 'y'.repeat(500))]), { maxMessage: 40 })
    expect(tableRows(long)[0]).toBe(`| warn | \`server:a/x\` | ${'y'.repeat(40)}… |`)
    expect(escapeMarkdown(HOSTILE)).toBe('\\<script>alert("x")\\</script> \\& \'quotes\' ]]> \\`tick\\` \uD800')
    // Punctuation that opens nothing stays as it is: ids, paths, versions and sentences read as typed.
    expect(escapeMarkdown('server:tools/call-x 2025-03-26 (a.b) "q" #1 @me 50% a > b!')).toBe('server:tools/call-x 2025-03-26 (a.b) "q" #1 @me 50% a > b!')
    expect(escapeMarkdown('a :smile: b | c $x$ ~~d~~ **e** [f](g)')).toBe('a \\:smile: b \\| c \\$x\\$ \\~\\~d\\~\\~ \\*\\*e\\*\\* \\[f](g)')
    expect(codeSpan('a`b|c')).toBe('``a`b\\|c``')
    expect(codeSpan('`x`')).toBe('`` `x` ``')
  })

  it('escapeMarkdown is lossless up to flattening, and leaves no opener unescaped', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        const escaped = escapeMarkdown(text, 1000)
        expect(escaped).not.toMatch(/[\n\r]/)
        // Without the escaped pairs, no opener is left.
        expect(escaped.replace(/\\[\\`*_~[<&$|:]/g, '')).not.toMatch(/[\\`*_~[<&$|]|:[\w+-]+:/)
        // eslint-disable-next-line no-control-regex -- the flattening under test
        const flat = text.replace(/[\u0000-\u001F\u007F]/g, ' ').replace(/\s+/g, ' ').trim()
        expect(escaped.replace(/\\([\\`*_~[<&$|:])/g, '$1')).toBe(flat)
      }),
    )
  })
})

/** How the Actions runner reads a workflow command line back (the inverse of @actions/core's escaping). */
function decodeCommand(line: string): { kind: string; properties: Record<string, string>; message: string } {
  const match = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line)
  if (!match) throw new Error(`not a workflow command: ${line}`)
  const unescape = (text: string, property: boolean) => {
    let out = text.replace(/%0D/g, '\r').replace(/%0A/g, '\n')
    if (property) out = out.replace(/%3A/g, ':').replace(/%2C/g, ',')
    return out.replace(/%25/g, '%')
  }
  const properties = Object.fromEntries((match[2] ?? '').split(',').filter(Boolean).map((pair) => {
    const eq = pair.indexOf('=')
    return [pair.slice(0, eq), unescape(pair.slice(eq + 1), true)]
  }))
  return { kind: match[1]!, properties, message: unescape(match[3]!, false) }
}

describe('formatGithubAnnotations', () => {
  it('errors for failures, errors and stale entries; warnings for warnings; notices for expected failures; nothing for pass or skip', () => {
    const text = formatGithubAnnotations(reportOf([check('a/ok', 'pass'), check('a/x', 'fail', 'broke'), check('a/w', 'warn', 'meh'), check('a/k', 'fail', 'known', true), check('a/s', 'skip'), check('h/r', 'error', 'boom')], ['server:a/gone']))
    expect(text.split('\n')).toEqual([
      '::error title=mcp-conformance server%3Aa/x::broke',
      '::warning title=mcp-conformance server%3Aa/w::meh',
      '::notice title=mcp-conformance server%3Aa/k (expected by the baseline)::known',
      '::error title=mcp-conformance server%3Ah/r could not run::boom',
      '::error title=mcp-conformance stale baseline entry::server:a/gone no longer fails: remove it from the baseline',
      '',
    ])
    expect(formatGithubAnnotations(reportOf([check('a/ok', 'pass')]))).toBe('')
  })

  it('a hostile message cannot end the command early or inject another one', () => {
    const text = formatGithubAnnotations(reportOf([check('tools/call/a,b:c', 'fail', 'line one\n::error::forged\r\n100%0A')]))
    expect(text.split('\n')).toHaveLength(2)
    expect(text).toBe('::error title=mcp-conformance server%3Atools/call/a%2Cb%3Ac::line one%0A::error::forged%0D%0A100%250A\n')
    expect(decodeCommand(text.trimEnd())).toEqual({ kind: 'error', properties: { title: 'mcp-conformance server:tools/call/a,b:c' }, message: 'line one\n::error::forged\r\n100%0A' })
  })

  it('escaping round-trips through the runner’s decoding for any text, but for controls, shown as escapes, and `##[`', () => {
    // What a reader of the annotation sees: line breaks as line breaks, every other control as its escape (the terminal's rule), no `##[` command.
    const shown = (text: string) => text.replace(/[^\r\n]+/g, (part) => escapeControls(part).replaceAll('##[', '#\\x23['))
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (title, message) => {
        const line = `::warning title=${escapeProperty(title)}::${escapeData(message)}`
        // eslint-disable-next-line no-control-regex -- asserting their absence
        expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
        expect(line).not.toContain('##[')
        expect(decodeCommand(line)).toEqual({ kind: 'warning', properties: { title: shown(title) }, message: shown(message) })
      }),
    )
  })
})
