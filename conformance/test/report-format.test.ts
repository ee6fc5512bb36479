/** The pure report writers: structure, counts, and escaping of untrusted server strings. */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { escapeHtml, escapeXml, safeUrl, xmlSafe } from '../src/report/escape.ts'
import { formatHtml } from '../src/report/html.ts'
import { SCRIPT, STYLE } from '../src/report/html-assets.ts'
import { formatJson } from '../src/report/json.ts'
import { formatJunit } from '../src/report/junit.ts'
import { formatSummary } from '../src/report/summary.ts'
import { hostileReport } from './report-fixture.ts'

/** A minimal well-formedness check: balanced tags, and no raw '<' or bare '&' in text or attributes. */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '')
  const stack: string[] = []
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>/g
  let last = 0
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const text = body.slice(last, m.index)
    expect(text, 'text between tags').not.toMatch(/<|&(?!(amp|lt|gt|quot|apos|#\d+);)/)
    expect(m[3] ?? '', 'attributes').not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/)
    if (m[1]) expect(stack.pop()).toBe(m[2])
    else if (!m[4]) stack.push(m[2] as string)
    last = tag.lastIndex
  }
  expect(body.slice(last).trim()).toBe('')
  expect(stack).toEqual([])
  // eslint-disable-next-line no-control-regex -- asserting their absence
  expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/)
}

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
  })

  it('has a filter per status with counts, and one expandable entry per check', () => {
    for (const label of ['All (6)', 'Failures (2)', 'Errors (1)', 'Warnings (1)', 'Passed (1)', 'Skipped (1)']) expect(html).toContain(`>${label}</button>`)
    expect(html.match(/<details class="check"/g)).toHaveLength(6)
    expect(html).toContain('<span class="expected">expected</span>')
    expect(html).toContain('Stale baseline entries')
  })
})

describe('the stderr summary', () => {
  it('lists what needs attention and explains the exit code', () => {
    const text = formatSummary(hostileReport(), ['/r/results.json'])
    expect(text).toContain('Total: 1 passed, 2 failed (1 expected by the baseline), 1 warnings, 1 skipped, 1 errors')
    expect(text).toContain('Stale baseline entries (no longer failing; remove them): server:tools/gone')
    expect(text).toContain('Exit code 2: a check could not run')
    expect(text).not.toContain('lifecycle/initialize')
  })
})
