/**
 * The wire diagram: what each row says, which step a failing check marks, and that nothing a
 * server or client said can break out of the SVG (markup, quotes, controls, lone surrogates,
 * very long lines, a storm of rows).
 */
import { describe, expect, it } from 'vitest'
import type { CheckResult, RunTranscript, TimelineEvent } from '../src/model.ts'
import { describe as describeMessage, failuresByStep, formatDiagram } from '../src/report/diagram.ts'
import { formatHtml } from '../src/report/html.ts'
import { HOSTILE, hostileReport } from './report-fixture.ts'
import { assertWellFormedXml } from './support/well-formed.ts'

const step = (n: number, text: string, extra: Partial<Extract<TimelineEvent, { kind: 'step' }>> = {}): TimelineEvent => ({ at: n * 10, kind: 'step', step: n, text, ...extra })
const message = (at: number, from: 'client' | 'server', body: object): TimelineEvent => ({ at, kind: 'message', from, message: { jsonrpc: '2.0', ...body } })

const events: TimelineEvent[] = [
  step(0, 'the client starts'),
  { at: 1, kind: 'process', what: 'start', text: 'server process started' },
  message(2, 'client', { id: 'c1', method: 'initialize' }),
  message(3, 'server', { id: 'c1', result: { protocolVersion: '2025-11-25' } }),
  step(1, 'call echo', { call: 1 }),
  message(11, 'client', { id: 'c2', method: 'tools/call', params: { name: 'echo' } }),
  message(12, 'server', { id: 'c2', error: { code: -32601, message: 'no such method' } }),
  step(2, 'call slow', { call: 2 }),
  message(21, 'client', { id: 'c3', method: 'tools/call', params: { name: 'slow' } }),
  message(25, 'client', { method: 'notifications/cancelled', params: { requestId: 'c3', reason: 'timed out' } }),
  step(3, 'wait for state connected', { failed: true }),
  { at: 31, kind: 'log', text: '[warn] connection lost' },
  { at: 32, kind: 'process', what: 'exit', text: 'server process ended (pid 7)' },
  step(4, 'expectations judged, the client disposed, invariants', { end: true }),
]
const transcript: RunTranscript = { text: 'the text', events }
const check = (id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({ id, title: id, status, message: `${id} went wrong`, ...extra })
const checks = [check('expect/call-1', 'pass'), check('expect/call-2', 'fail'), check('steps/completed', 'fail'), check('expect/tools', 'fail', { expected: true }), check('invariant/no-orphans', 'pass')]
const svg = formatDiagram({ transcript, checks, id: 'suite-7', client: 'mcp-bridge', server: 'fixture over stdio' })

describe('which step a failing check marks', () => {
  it('a call by its number, a step that stopped by its flag, anything judged at the end at the end; passes mark nothing', () => {
    expect(failuresByStep(events, checks).map((f) => `${f.check.id} → ${f.step} ${f.tone}`)).toEqual(['expect/call-2 → 2 fail', 'steps/completed → 3 fail', 'expect/tools → 4 expected'])
    expect(failuresByStep(events, [check('expect/tools-at-step-1', 'fail'), check('harness/run', 'error')]).map((f) => f.step)).toEqual([1, 4])
  })
})

describe('the diagram', () => {
  it('is one SVG with a client and a server lane and a row per event, each with its time', () => {
    assertWellFormedXml(svg)
    expect(svg.match(/<svg /g)).toHaveLength(1)
    expect(svg).toMatch(/<g class="lane client">.*>mcp-bridge<\/text>/)
    expect(svg).toMatch(/<g class="lane server">.*>fixture over stdio<\/text>/)
    expect(svg.match(/<text class="time" /g)).toHaveLength(events.length)
    expect(svg).toContain('>+25 ms</text>')
  })

  it('draws requests, answers, errors, cancellations, process starts and ends, and log lines each their own way', () => {
    expect(svg).toMatch(/<g class="msg request">.*>initialize c1<\/text>/)
    expect(svg).toMatch(/<g class="msg response">.*>result c1<\/text>/)
    expect(svg).toMatch(/<g class="msg request">.*>tools\/call c2 echo<\/text>/)
    expect(svg).toMatch(/<g class="msg error">.*>error c2 -32601 no such method<\/text>/)
    expect(svg).toMatch(/<g class="msg cancel">.*>✕ cancel c3 \(timed out\)<\/text>/)
    expect(svg).toMatch(/<g class="proc start">.*>server process started<\/text>/)
    expect(svg).toMatch(/<g class="proc exit">.*>server process ended \(pid 7\)<\/text>/)
    expect(svg).toMatch(/<g class="log">.*>\[warn\] connection lost<\/text>/)
    // A client request points at the server lane, an answer back at the client's.
    expect(svg).toMatch(/<g class="msg request"><text[^>]*>[^<]*<\/text><line x1="230" y1="\d+" x2="772"/)
    expect(svg).toMatch(/<g class="msg response"><text[^>]*>[^<]*<\/text><line x1="780" y1="\d+" x2="238"/)
  })

  it('marks each step a failing check is about, with the check ids, over a band to the next step', () => {
    const failed = [...svg.matchAll(/<g class="step failed (\w+)" id="([^"]+)" data-failed="([^"]+)">/g)].map((m) => `${m[2]} ${m[1]} ${m[3]}`)
    expect(failed).toEqual(['suite-7-step-2 fail expect/call-2', 'suite-7-step-3 fail steps/completed', 'suite-7-step-4 expected expect/tools'])
    expect(svg).toContain('>✗ Step 2 · call slow — expect/call-2</text>')
    expect(svg).toContain('>! End · expectations judged, the client disposed, invariants — expect/tools</text>')
    expect(svg).toMatch(/<rect class="band fail" data-band="suite-7-step-2" x="2" y="\d+" width="896" height="72"/)
    expect(svg).not.toContain('id="suite-7-step-1" data-failed')
  })

  it('draws a storm of notifications as one row with a count', () => {
    const storm = Array.from({ length: 200 }, (_, i) => message(i, 'server', { method: 'notifications/tools/list_changed' }))
    const drawn = formatDiagram({ transcript: { text: '', events: [step(0, 'start'), ...storm] }, checks: [], id: 's', client: 'c', server: 's' })
    expect(drawn.match(/<g class="msg notification">/g)).toHaveLength(1)
    expect(drawn).toContain('>notifications/tools/list_changed ×200</text>')
  })

  it('stops at 400 rows, says how many it left out, and still shows a failed step beyond them', () => {
    const many = Array.from({ length: 500 }, (_, i) => message(i, 'client', { id: `c${i}`, method: 'ping' }))
    const drawn = formatDiagram({ transcript: { text: '', events: [...many, step(1, 'the last step', { failed: true })] }, checks: [check('steps/completed', 'fail')], id: 's', client: 'c', server: 's' })
    expect(drawn.match(/<g class="msg request">/g)).toHaveLength(400)
    expect(drawn).toContain('… 101 more rows; the text transcript has them all …')
    expect(drawn).toContain('id="s-step-1" data-failed="steps/completed"')
  })
})

describe('hostile strings in a diagram', () => {
  const long = `${'A'.repeat(5_000)}<script>alert(1)</script>`
  const hostileEvents: TimelineEvent[] = [
    step(0, HOSTILE),
    { at: 1, kind: 'process', what: 'start', text: `${HOSTILE}</text></svg><script>alert(2)</script>` },
    message(2, 'client', { id: `"><script>alert(3)</script>`, method: `</text><foreignObject><img src=x onerror=alert(4)>${HOSTILE}` }),
    message(3, 'server', { id: 1, error: { code: `"onload="alert(5)`, message: `${long}\n${HOSTILE}` } }),
    message(4, 'server', { method: `${HOSTILE}]]><!--`, params: { name: long } }),
    message(5, 'client', { method: 'notifications/cancelled', params: { requestId: HOSTILE, reason: `\u001b[31m${long}` } }),
    { at: 6, kind: 'log', text: `${long}\u0000\u0007${HOSTILE}` },
    { at: 7, kind: 'omitted', count: 3 },
    step(1, `${HOSTILE} ${long}`, { call: 1 }),
  ]
  const hostileChecks = [check('expect/call-1', 'fail', { message: `${HOSTILE}</svg>` }), check(`invariant/${HOSTILE}`, 'error', { message: long })]
  const drawn = formatDiagram({ transcript: { text: `${HOSTILE}\n${long}`, events: hostileEvents }, checks: hostileChecks, id: 'suite-0', client: `${HOSTILE} client`, server: long })

  it('escape everything: the SVG stays well-formed and nothing executable gets in', () => {
    assertWellFormedXml(drawn)
    expect(drawn).not.toMatch(/<(script|foreignObject|img|iframe|a)\b/i)
    // Text cannot hold a "<" (the well-formedness check says so), so every tag here is one the diagram wrote.
    expect(drawn).not.toMatch(/<[^>]*\son\w+=/i)
    expect(drawn).not.toMatch(/<[^>]*\shref=/)
    expect(drawn.match(/<svg /g)).toHaveLength(1)
    expect(drawn.match(/<\/svg>/g)).toHaveLength(1)
    expect(drawn).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
  })

  it('cut every text to its row, and every tooltip to a bound', () => {
    const texts = [...drawn.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&[a-z]+;|&#\d+;/g, '_'))
    for (const text of texts) expect(Array.from(text).length).toBeLessThanOrEqual(130)
    const titles = [...drawn.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]!.replace(/&[a-z]+;|&#\d+;/g, '_'))
    for (const title of titles) expect(Array.from(title).length).toBeLessThanOrEqual(1_000)
    expect(drawn).not.toContain('A'.repeat(1_001))
  })

  it('the page around it (captions, the plain-text transcript) escapes and bounds them too', () => {
    const report = hostileReport()
    report.suites.unshift({ id: 'evil', title: HOSTILE, kind: 'client', target: HOSTILE, transport: 'stdio', durationMs: 1, checks: hostileChecks, transcript: { text: `${HOSTILE}\n${long}`, events: hostileEvents } })
    const html = formatHtml(report)
    expect(html).not.toMatch(/<script>alert|<img src=x|<foreignObject/i)
    expect(html.match(/<script>/g)).toHaveLength(1)
    const block = html.slice(html.indexOf('<details class="diagram">'), html.indexOf('<details class="check"'))
    expect(block).toContain('<details class="transcript-text">')
    expect(block).not.toContain('A'.repeat(1_001))
    expect(block).toContain('… [4625 more characters]')
    assertWellFormedXml(/<svg [\s\S]*?<\/svg>/.exec(block)?.[0] ?? '')
  })
})

describe('a message in a few words', () => {
  it('names what it is, whatever shape it has', () => {
    expect(describeMessage({ id: 'c4', result: { tools: [{}, {}], nextCursor: 'x' } })).toEqual({ type: 'response', label: 'result c4 · 2 tools · more pages' })
    expect(describeMessage({ id: 'c5', result: { isError: true } })).toEqual({ type: 'response', label: 'result c5 · isError' })
    expect(describeMessage({ method: 'notifications/progress' })).toEqual({ type: 'notification', label: 'notifications/progress' })
    expect(describeMessage('[stderr] noise')).toEqual({ type: 'response', label: 'result' })
  })
})
