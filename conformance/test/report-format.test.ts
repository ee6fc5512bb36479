/** The pure report writers: structure, counts, and escaping of untrusted server strings. */
import { createHash } from 'node:crypto'
import { redactSecrets } from '@mcp-bridge/process'
import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../src/model.ts'
import { formatGithubAnnotations } from '../src/report/annotations.ts'
import { assembleReport } from '../src/report/assemble.ts'
import { escapeHtml, escapeXml, safeUrl, xmlSafe } from '../src/report/escape.ts'
import { formatHtml } from '../src/report/html.ts'
import { SCRIPT, STYLE } from '../src/report/html-assets.ts'
import { formatJson } from '../src/report/json.ts'
import { formatJunit } from '../src/report/junit.ts'
import { plain } from '../src/report/line.ts'
import { MAX_REPORT_STRING, redactSuite, redactValue } from '../src/report/redact.ts'
import { formatSummary, progressLine } from '../src/report/summary.ts'
import { hostileReport } from './report-fixture.ts'
import { assertWellFormedXml } from './support/well-formed.ts'

describe('escaping primitives', () => {
  it('escape markup and quotes, replace what XML cannot carry', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;')
    expect(escapeXml('<&>"\'')).toBe('&lt;&amp;&gt;&quot;&apos;')
    expect(xmlSafe('a\u0001b\uD800c\uD83D\uDE00')).toBe('a\uFFFDb\uFFFDc\uD83D\uDE00')
  })

  it('links only to http(s)', () => {
    expect(safeUrl('javascript:alert(1)')).toBeUndefined()
    expect(safeUrl('data:text/html,x')).toBeUndefined()
    expect(safeUrl('https://modelcontextprotocol.io/x')).toBe('https://modelcontextprotocol.io/x')
  })
})

describe('results.json', () => {
  it('is the RunReport itself, versioned, and round-trips', () => {
    const report = hostileReport()
    const text = formatJson(report)
    expect(JSON.parse(text)).toEqual(report)
    expect(JSON.parse(text).formatVersion).toBe(1)
    expect(text.endsWith('\n')).toBe(true)
  })
})

describe('junit.xml', () => {
  const xml = formatJunit(hostileReport())

  it('is well-formed despite hostile strings', () => {
    assertWellFormedXml(xml)
    expect(xml).not.toContain('<script>')
  })

  it('maps statuses: fail → failure, error → error, skip → skipped, warn and expected → system-out', () => {
    expect(xml).toMatch(/<testsuites name="mcp-conformance" tests="7" failures="2" errors="1" skipped="1" time="1.234">/)
    expect(xml).toMatch(/<testsuite name="server" tests="6" failures="1" errors="1" skipped="1" time="1.200">/)
    expect(xml).toMatch(/<testcase classname="server" name="tools\/names-unique: names [^"]*">\n\s*<failure message="duplicate &lt;script&gt;/)
    expect(xml).toContain('<system-out>EXPECTED FAILURE (baseline): known problem</system-out>')
    expect(xml).toMatch(/<system-out>WARN: missing for &lt;script&gt;/)
    expect(xml).toContain('<skipped message="not declared"/>')
    expect(xml).toContain('<error message="boom&#10;second line" type="error">')
    expect(xml).toMatch(/<testcase classname="server" name="lifecycle\/initialize: initialize works"\/>/)
  })

  it('turns stale baseline entries into failing testcases', () => {
    expect(xml).toMatch(/<testsuite name="baseline" tests="1" failures="1"[^>]*>\n\s*<testcase classname="baseline" name="server:tools\/gone">\n\s*<failure [^>]*type="stale-baseline"/)
  })
})

describe('report.html', () => {
  const html = formatHtml(hostileReport())

  it('escapes every server string and never links to javascript:', () => {
    expect(html).not.toContain('<script>alert')
    expect(html).not.toContain('<img src=x')
    expect(html).not.toMatch(/href="javascript:/)
    expect(html).toContain('Spec: evil link')
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
  })

  it('is self-contained and pins its one style and one script by hash', () => {
    expect(html).not.toMatch(/<(link|img|iframe)\b/)
    expect(html).not.toMatch(/<[^>]+\ssrc=/)
    const hash = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`
    expect(html).toContain(`style-src '${hash(STYLE)}'`)
    expect(html).toContain(`script-src '${hash(SCRIPT)}'`)
    expect(html.match(/<script>/g)).toHaveLength(1)
    expect(html).not.toMatch(/\sstyle=/)
  })

  it('has a filter per status with counts, and one expandable entry per check', () => {
    for (const label of ['All (6)', 'Failures (2)', 'Errors (1)', 'Warnings (1)', 'Passed (1)', 'Skipped (1)']) expect(html).toContain(`>${label}</button>`)
    expect(html.match(/<details class="check"/g)).toHaveLength(6)
    expect(html).toContain('<span class="expected">expected</span>')
    expect(html).toContain('Stale baseline entries')
  })

  it('says first, in words, what the exit code means, and counts expected failures apart from new ones', () => {
    expect(html).toMatch(/<div class="headline could-not-run"><strong>Could not run\.<\/strong> Exit code 2: 1 check could not run/)
    const counts = /<div class="counts">(.*?)<\/div>/.exec(html)?.[1] ?? ''
    expect([...counts.matchAll(/class="count (\w+)"[^>]*>(\d+) (\w+)</g)].map((m) => `${m[2]} ${m[3]}`)).toEqual(['1 error', '1 fail', '1 expected', '1 warn', '1 pass', '1 skip'])
    const passed = { ...hostileReport(), exitCode: 0 as const }
    expect(formatHtml(passed)).toMatch(/<div class="headline passed"><strong>Passed\.<\/strong>/)
  })

  it('puts a matrix of server areas × revision first; each cell has one colour, its count, and a link to an anchor that exists', () => {
    const matrix = /<table class="matrix">[\s\S]*?<\/table>/.exec(html)?.[0] ?? ''
    expect(matrix).toContain('<th scope="col">2025-11-25 · stdio</th>')
    const cells = [...matrix.matchAll(/<th scope="row">([^<]+)<\/th><td><a class="cell (\w+)" href="#([^"]+)" data-tone="\w+" data-count="(\d+)" data-total="(\d+)"/g)].map((m) => ({ area: m[1], tone: m[2], anchor: m[3], count: Number(m[4]), total: Number(m[5]) }))
    expect(cells.map(({ area, tone, count, total }) => `${area} ${tone} ${count}/${total}`)).toEqual(['lifecycle pass 1/1', 'tools fail 1/3', 'prompts skip 1/1', 'harness error 1/1'])
    for (const { anchor } of cells) expect(html).toContain(`id="${anchor}"`)
    expect(html.indexOf('class="matrix"')).toBeLessThan(html.indexOf('class="suite"'))
  })

  it('a failure the baseline expects has its own colour and word, not the colour of a new failure', () => {
    const report = hostileReport()
    report.suites[0]!.checks[1]!.status = 'pass'
    const page = formatHtml(report)
    expect(page).toMatch(/<th scope="row">tools<\/th><td><a class="cell expected" [^>]*>1 expected<small>1 warn · 1 pass<\/small><\/a>/)
    expect(page).toMatch(/<span class="badge expected">FAIL<\/span><span class="id">tools\/call\/x<\/span>/)
  })

  it('shows client scenarios as rows and transports as columns, a missing transport as a dash', () => {
    const report = hostileReport()
    const client = (id: string, transport: 'stdio' | 'http', status: 'pass' | 'fail') => ({ id, title: `${id} title`, kind: 'client' as const, target: 'mcp-bridge', transport, durationMs: 1, checks: [{ id: 'expect/tools', title: 't', status, message: 'm' }] })
    report.suites = [client('a', 'stdio', 'pass'), client('a', 'http', 'fail'), client('b', 'http', 'pass'), ...report.suites]
    const matrix = /<table class="matrix">[\s\S]*?<\/table>/.exec(formatHtml(report))?.[0] ?? ''
    expect(matrix).toMatch(/<th scope="col">scenario<\/th><th scope="col">stdio<\/th><th scope="col">http<\/th>/)
    expect(matrix).toMatch(/<th scope="row" title="a title">a<\/th><td><a class="cell pass" href="#suite-0"[^>]*>1 pass<\/a><\/td><td><a class="cell fail" href="#suite-1"[^>]*>1 fail<\/a>/)
    expect(matrix).toMatch(/<th scope="row" title="b title">b<\/th><td><span class="cell none">—<\/span><\/td><td><a class="cell pass" href="#suite-2"/)
  })

  it('folds passing checks into one line per suite, so the failures are what a reader sees', () => {
    expect(html).toMatch(/<details class="passed"><summary>1 passed check<\/summary>\n<details class="check" data-status="pass">/)
  })
})

describe('the stderr summary', () => {
  const text = formatSummary(hostileReport(), ['/r/results.json'])

  it('lists what needs attention and explains the exit code', () => {
    expect(text).toContain('Total: 1 passed, 2 failed (1 expected by the baseline), 1 warnings, 1 skipped, 1 errors')
    expect(text).toContain('Stale baseline entries (no longer failing; remove them): server:tools/gone')
    expect(text).toContain('Exit code 2: 1 check could not run (a harness error')
    expect(text).not.toContain('lifecycle/initialize')
  })

  it('has one line per area, as the matrix has, with the checks that need a look under it', () => {
    const lines = text.split('\n')
    const at = lines.findIndex((line) => line.startsWith('  ✗ tools'))
    expect(lines[at]).toBe('  ✗ tools      1 fail, 1 expected, 1 warn')
    expect(lines[at + 1]).toMatch(/^ {6}✗ fail {2}tools\/names-unique — duplicate <script>/)
    expect(lines[at + 2]).toBe('      ✗ fail  tools/call/x (expected) — known problem')
    expect(lines[at + 3]).toMatch(/^ {6}! warn {2}tools\/descriptions — /)
    expect(lines).toContain('  ✓ lifecycle  1 pass')
    expect(lines).toContain('  E harness    1 error')
  })

  it('has no escape codes without colour, not even ones a server put in its messages', () => {
    const report = hostileReport()
    report.suites[0]!.checks[1]!.message = 'red \u001b[31m alarm \u001b]0;title\u0007 \u009b2J'
    const plainText = formatSummary(report)
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(plainText).not.toMatch(/[\u001b\u0007\u009b]/)
    expect(plainText).toContain('red \\x1b[31m alarm \\x1b]0;title\\x07 \\x9b2J')
    const coloured = formatSummary(report, [], { color: true })
    expect(coloured).toContain('\u001b[31m✗ fail \u001b[0m tools/names-unique')
    expect(coloured).toContain('red \\x1b[31m alarm')
  })

  it('shows bidirectional overrides, isolates, line separators and C1 controls as escapes, never raw', () => {
    const report = hostileReport()
    report.suites[0]!.checks[1]!.message = 'evil \u202e\u202a\u2066\u2069\u2028\u2029\u0085 end'
    report.suites[0]!.checks[1]!.id = 'tools/\u202enames'
    const text = formatSummary(report)
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u2028\u2029\u0085]/)
    expect(text).toContain('evil \\u202e\\u202a\\u2066\\u2069\\u2028\\u2029\\x85 end')
    expect(plain('a\u202eb\tc\nd')).toBe('a\\u202eb\\tc\\nd')
  })
})

/** Every control a terminal or a CI log could obey, and the workflow commands the Actions runner reads. */
const FORGE = 'a\u001b[31mred\u001b]8;;https://x\u0007link\u001b]8;;\u0007\u001b]52;c;cHduZWQ=\u0007\u0000\u007f\u009b2J\u202eevil\n::error title=forged::forged\n##[add-mask]x\r::warning::cr'
// eslint-disable-next-line no-control-regex -- finding them is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
/** A line the runner would read as a workflow command: `::` at its start (after spaces), `##[` anywhere. */
const COMMAND = /^\s*::|##\[/

describe('GitHub annotations', () => {
  const report = hostileReport()
  report.suites[0]!.checks[1]!.message = FORGE
  report.suites[0]!.checks[1]!.id = `tools/${FORGE}`
  report.staleBaseline = [FORGE]
  const text = formatGithubAnnotations(report)
  const lines = text.split('\n').slice(0, -1)

  it('write no control character raw, and a line break in a message as %0A, so each annotation stays one command', () => {
    expect(text).not.toMatch(RAW_CONTROL)
    expect(lines).toHaveLength(5)
    for (const line of lines) expect(line).toMatch(/^::(error|warning|notice) title=/)
    expect(text).toContain('a\\x1b[31mred\\x1b]8;;https://x\\x07link\\x1b]8;;\\x07\\x1b]52;c;cHduZWQ=\\x07\\x00\\x7f\\x9b2J\\u202eevil%0A')
  })

  it('hold no `##[` command, which the runner reads anywhere in a line', () => {
    expect(text).not.toContain('##[')
    expect(text).toContain('%0A#\\x23[add-mask]x%0D::warning::cr')
  })
})

describe('untrusted text on stdout and stderr is one line of its own', () => {
  const report = hostileReport()
  report.suites[0]!.id = `server${FORGE}`
  report.suites[0]!.target = FORGE
  report.suites[0]!.checks[1]!.id = `tools/${FORGE}`
  report.suites[0]!.checks[1]!.message = FORGE
  report.staleBaseline = [FORGE]
  const comparison = { against: 'previous.json', newFailures: [], fixed: [], added: [], removed: [{ suite: FORGE, check: FORGE, before: 'fail' as const }], changed: [], unchanged: 0 }

  it('the summary: ids, targets, stale entries and the comparison forge no line, no command and no escape', () => {
    const text = formatSummary(report, [], { comparison })
    expect(text).not.toMatch(RAW_CONTROL)
    for (const line of text.split('\n')) expect(line).not.toMatch(COMMAND)
    expect(text.split('\n')).toHaveLength(formatSummary(hostileReport(), [], { comparison: { ...comparison, removed: [{ suite: 'a', check: 'b', before: 'fail' }] } }).split('\n').length)
    expect(text).toContain('  removed      a\\x1b[31mred')
    expect(text).toContain('Stale baseline entries (no longer failing; remove them): a\\x1b[31mred')
  })

  it('the progress line, and every item of it bounded', () => {
    const line = progressLine({ id: `::error::${FORGE}`, title: 't', status: 'fail', message: `${FORGE}${'x'.repeat(10_000)}` })
    expect(line).not.toMatch(RAW_CONTROL)
    expect(line).not.toContain('\n')
    expect(line).not.toMatch(COMMAND)
    expect(line).toContain('\\x3a:error::a')
    expect(line.length).toBeLessThan(500)
    expect(plain('  ::x ##[y] ###[z]')).toBe('  \\x3a:x #\\x23[y] ##\\x23[z]')
  })
})

describe('redaction of the report model', () => {
  const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGh'
  const other = 'sk-proj-ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210ZyXwVuTs'

  it('redacts keys as well as values, and keeps two keys that redact alike apart', () => {
    const value = { properties: { [key]: { type: 'string' }, [other]: { type: 'number' }, ['__proto__']: { type: 'boolean' }, plain: 1 } }
    const redacted = redactValue(value, redactSecrets)
    expect(JSON.stringify(redacted)).not.toContain('sk-proj-')
    const keys = Object.keys(redacted.properties)
    expect(keys).toHaveLength(4)
    expect(keys[1]).toBe(`${keys[0]} (2)`)
    expect(keys.slice(2)).toEqual(['__proto__', 'plain'])
    expect(Object.values(redacted.properties).slice(0, 2)).toEqual([{ type: 'string' }, { type: 'number' }])
  })

  it('keeps no secret key out of results.json, junit.xml and report.html', () => {
    const check: CheckResult = { id: 'tools/input-schema', title: 't', status: 'fail', message: 'm', details: { inputSchema: { properties: { [key]: {} } } }, wire: [{ result: { prompts: [{ arguments: { [key]: 'x' } }] } }] }
    const report = assembleReport({ suites: [{ id: 'server', title: 's', kind: 'server', target: 't', checks: [check], durationMs: 1 }], baseline: [], tool: { name: 'x', version: '1' }, startedAt: '', durationMs: 1 })
    for (const text of [formatJson(report), formatJunit(report), formatHtml(report)]) expect(text).not.toContain('sk-proj-AbCdEfGh')
  })

  it('bounds every string and key before it redacts it, and nesting, as a live run bounds what it quotes', () => {
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4)}`
    let deep: unknown = 'bottom'
    for (let i = 0; i < 10_000; i++) deep = [deep]
    const suite = redactSuite({ id: 's', title: 't', kind: 'server', target: 't', durationMs: 1, checks: [{ id: 'c', title: 't', status: 'fail', message: `${secret} ${'A'.repeat(10_000_000)}`, details: { [`${secret}${'k'.repeat(200_000)}`]: 1, deep } }] }, redactSecrets)
    const check = suite.checks[0]!
    expect(check.message.length).toBeLessThanOrEqual(MAX_REPORT_STRING + 1)
    expect(check.message).not.toContain(secret)
    expect(Object.keys(check.details as object)[0]!.length).toBeLessThanOrEqual(MAX_REPORT_STRING + 1)
    expect(JSON.stringify(check.details)).toContain('[nested too deep for the report]')
  })
})
