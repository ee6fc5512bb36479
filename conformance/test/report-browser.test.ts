/**
 * report.html in Chromium (the one @sparticuz/chromium ships: test/support/chromium.ts, so this
 * never skips). Two real reports, made once:
 * - the default run, by the built CLI as a user runs it: its matrices must agree with its own
 *   results.json, its filter and check detail work, and nothing trips the CSP;
 * - a run that fails for a real reason: the kit's deliberately naive test client
 *   (support/naive-client.ts) with its `noReconnect` bug, against the HTTP session-expiry
 *   scenario. It gives up after the 404, so call 3 fails, and its diagram must mark that step.
 * - a `server --spec-version all` run against the rule server (test/fixtures/rule-server) with a
 *   fault only 2025-03-26 does not allow: the server matrix has a column per revision, each headed
 *   by its verdict, and the failing revision's cell leads to its check.
 * Screenshots of the overview and of that diagram go to .artifacts/ on every run, and to docs/
 * (which README.md shows) when UPDATE_SCREENSHOTS=1 or when they are missing, so that they do
 * not churn with every run's times.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runClientScenarios } from '../src/client/index.ts'
import type { RunReport } from '../src/model.ts'
import { main } from '../src/cli.ts'
import { assembleReport } from '../src/report/assemble.ts'
import type { ReportWithRevisions } from '../src/report/revisions.ts'
import { areasOf, tally, TONES } from '../src/report/overview.ts'
import { writeReports } from '../src/report/write.ts'
import { launchChromium, type LaunchedChromium } from '../../test/support/chromium.ts'
import { WHOLE_DEFAULT_RUN_MS } from '../../test/support/default-run.ts'
import { naiveClient } from './support/naive-client.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const ARTIFACTS = join(ROOT, '.artifacts')
const DOCS = join(ROOT, 'docs')
const BIN = join(ROOT, 'conformance/bin/mcp-conformance.js')

let chromium: LaunchedChromium | undefined
let browser: Browser
let dir: string
let report: RunReport
let failing: RunReport
let revisions: ReportWithRevisions
const problems: string[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-html-'))
  const [code] = await Promise.all([
    defaultRun(join(dir, 'default')),
    // Only the naive client's own process takes part here; it runs while the CLI runs.
    naiveRun(join(dir, 'naive')),
    revisionsRun(join(dir, 'revisions')),
  ])
  revisions = JSON.parse(await readFile(join(dir, 'revisions', 'results.json'), 'utf8')) as ReportWithRevisions
  report = JSON.parse(await readFile(join(dir, 'default', 'results.json'), 'utf8')) as RunReport
  expect(code).toBe(report.exitCode)
  failing = JSON.parse(await readFile(join(dir, 'naive', 'results.json'), 'utf8')) as RunReport
  chromium = await launchChromium()
  browser = chromium.browser
  // The default run's own bound, and a minute for the browser's start.
}, WHOLE_DEFAULT_RUN_MS + 60_000)

afterAll(async () => {
  try {
    await chromium?.close()
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true })
  }
})

function defaultRun(out: string): Promise<number> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [BIN, '--report-dir', out], { cwd: ROOT, timeout: WHOLE_DEFAULT_RUN_MS }, (error) => {
      const code = error && typeof error.code === 'number' ? error.code : error ? -1 : 0
      if (code === -1) fail(error)
      else done(code)
    })
  })
}

async function naiveRun(out: string): Promise<void> {
  const suites = await runClientScenarios({ transports: ['http'], scenarioIds: ['http-404-session-expiry'], updateSnapshots: false, adapter: naiveClient({ noReconnect: true }) })
  const naive = assembleReport({ suites, baseline: [], tool: { name: 'mcp-conformance', version: '0.1.0' }, startedAt: new Date().toISOString(), durationMs: suites[0]!.durationMs })
  await writeReports(naive, out)
}

/** The CLI in-process, as `mcp-conformance server --spec-version all -- node rule-server/stdio.mjs resource-link-everywhere`. */
async function revisionsRun(out: string): Promise<void> {
  const io = { stdout: () => {}, stderr: () => {}, cwd: ROOT }
  const server = join(ROOT, 'conformance/test/fixtures/rule-server/stdio.mjs')
  const code = await main(['server', '--spec-version', 'all', '--report-dir', out, '--timeout', '3000', '--call', 'echo={"text":"hi"}', '--', process.execPath, server, 'resource-link-everywhere'], io)
  expect(code).toBe(1)
}

async function open(which: 'default' | 'naive' | 'revisions', viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport })
  // A CSP violation (an inline style, a blocked script) is reported on the console.
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(pathToFileURL(join(dir, which, 'report.html')).href)
  return page
}

/** Every run, a copy for whoever looks at the artifacts; docs/ only when asked to (or when missing). */
async function keepScreenshot(file: string, take: (path: string) => Promise<unknown>): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true })
  await take(join(ARTIFACTS, file))
  if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(join(DOCS, file))) {
    await mkdir(DOCS, { recursive: true })
    await copyFile(join(ARTIFACTS, file), join(DOCS, file))
  }
}

describe('the default run’s report.html in Chromium', () => {
  it('the headline says what the exit code means, and the counts match results.json', async () => {
    const page = await open('default')
    const headline = await page.locator('.headline').textContent()
    expect(headline).toMatch(report.exitCode === 0 ? /^Passed\. Exit code 0: every check passed/ : /^Failed\. Exit code 1: /)
    const counts = tally(report.suites.flatMap((s) => s.checks))
    const pills = await page.locator('.counts .count').allTextContents()
    expect(pills).toEqual(TONES.filter((t) => counts[t] > 0 || t === 'fail' || t === 'pass').map((t) => `${counts[t]} ${t}`))
    expect(counts.pass).toBe(report.summary.pass)
    expect(counts.fail + counts.expected).toBe(report.summary.fail)
    await page.close()
  })

  it('every matrix cell shows the worst colour and its count of its suite (or server area) in results.json, and leads to it', async () => {
    const page = await open('default')
    const cells = await page.locator('a.cell').evaluateAll((links) =>
      links.map((a) => ({ href: a.getAttribute('href')!, tone: (a as HTMLElement).dataset.tone, count: Number((a as HTMLElement).dataset.count), total: Number((a as HTMLElement).dataset.total), text: a.textContent, colour: getComputedStyle(a).backgroundColor })),
    )
    const expected: typeof cells = []
    report.suites.forEach((suite, i) => {
      const groups = suite.kind === 'server' ? areasOf(suite).map(({ checks }, k) => ({ href: `#suite-${i}-area-${k}`, checks })) : [{ href: `#suite-${i}`, checks: suite.checks }]
      for (const { href, checks } of groups) {
        const counts = tally(checks)
        const tone = TONES.find((t) => counts[t] > 0)!
        expected.push({ href, tone, count: counts[tone], total: checks.length, text: '', colour: '' })
      }
    })
    expect(cells.map(({ href, tone, count, total }) => ({ href, tone, count, total }))).toEqual(expected.map(({ href, tone, count, total }) => ({ href, tone, count, total })).sort((a, b) => order(a.href) - order(b.href)))
    const clientRuns = report.suites.filter((s) => s.kind === 'client').length
    expect(cells.filter((c) => /^#suite-\d+$/.test(c.href))).toHaveLength(clientRuns)
    expect(clientRuns).toBeGreaterThan(50)
    for (const cell of cells) expect(cell.text).toMatch(new RegExp(`^${cell.count} ${cell.tone}`))
    // One colour per tone: the expected failure's cell is not the colour of a new failure.
    const colours = new Map(cells.map((c) => [c.tone, c.colour]))
    expect(new Set(colours.values()).size).toBe(colours.size)
    expect(colours.get('expected')).toBeDefined()

    const overview = (await page.locator('.overview').boundingBox())!
    await keepScreenshot('report-overview.png', (path) => page.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.ceil(overview.y + overview.height) } }))

    const tools = page.locator('a.cell[data-tone="expected"]')
    await tools.click()
    const target = (await tools.getAttribute('href'))!.slice(1)
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#${target}`)
    // In view (the server's last areas cannot scroll to the very top: the page ends below them).
    const top = await page.locator(`[id="${target}"]`).evaluate((el) => el.getBoundingClientRect().top)
    // Sub-pixel layout may leave the target a fraction of a pixel above the top after scrolling.
    expect(top).toBeGreaterThanOrEqual(-1)
    expect(top).toBeLessThan(900)
    expect(problems).toEqual([])
    await page.close()
  })

  it('filters to failures, expands the expected one, and shows its message, spec link and wire excerpt', async () => {
    const page = await open('default')
    const checks = page.locator('details.check')
    const server = report.suites.find((s) => s.kind === 'server')!
    const failed = report.suites.flatMap((s) => s.checks).filter((c) => c.status === 'fail')
    expect(failed.length).toBeGreaterThan(0)
    await page.getByRole('button', { name: `Failures (${failed.length})` }).click()
    const visible = checks.filter({ visible: true })
    await expect.poll(() => visible.count()).toBe(failed.length)
    expect(await visible.evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.status))).toEqual(failed.map(() => 'fail'))
    const first = visible.first()
    await first.locator('summary').click()
    await expect.poll(() => first.locator('.message').isVisible()).toBe(true)
    expect(await first.locator('.message').textContent()).toBe(server.checks.find((c) => c.status === 'fail')!.message)
    expect(await first.locator('.badge').getAttribute('class')).toBe('badge expected')
    expect(await first.locator('.spec a').first().getAttribute('href')).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\//)
    expect(await first.locator('h4', { hasText: 'Wire' }).isVisible()).toBe(true)
    expect(await first.locator('pre').last().textContent()).toContain('"method": "tools/call"')
    await page.getByRole('button', { name: /^Errors \(0\)$/ }).click()
    expect(await checks.filter({ visible: true }).count()).toBe(0)
    expect(await page.locator('.empty').isVisible()).toBe(true)
    expect(problems).toEqual([])
    await page.close()
  })

  it('junit.xml parses as XML in the browser', async () => {
    const xml = await readFile(join(dir, 'default', 'junit.xml'), 'utf8')
    const page = await browser.newPage()
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml')
      return { error: doc.querySelector('parsererror')?.textContent ?? null, cases: doc.querySelectorAll('testcase').length }
    }, xml)
    expect(parsed).toEqual({ error: null, cases: report.suites.reduce((n, s) => n + s.checks.length, 0) })
    await page.close()
  })
})

describe('a --spec-version all report in Chromium', () => {
  it('the server matrix has one column per revision, headed by each revision’s verdict in its colour', async () => {
    const page = await open('revisions')
    const box = page.locator('.matrix-box', { has: page.locator('h2', { hasText: 'Server checks' }) })
    expect(await box.locator('thead tr').first().locator('th').allTextContents()).toEqual(['area', '2025-03-26 · stdio', '2025-06-18 · stdio', '2025-11-25 · stdio', '2026-07-28 · stdio'])
    const verdicts = await box.locator('tr.verdicts .verdict').evaluateAll((spans) =>
      spans.map((v) => ({ revision: (v as HTMLElement).dataset.revision, text: v.textContent, colour: getComputedStyle(v).color, visible: (v as HTMLElement).offsetHeight > 0 })),
    )
    expect(verdicts.map(({ revision, text, visible }) => ({ revision, text, visible }))).toEqual(
      revisions.revisions!.map((r) => ({ revision: r.revision, text: r.supported ? r.verdict : 'not supported', visible: true })),
    )
    // The fixture is a legacy server: 2026-07-28 is not supported, judged by nothing of it.
    expect(verdicts.map((v) => v.text)).toEqual(['fail', 'pass', 'pass', 'not supported'])
    // The failing revision in the colour of a failure, the passing ones in the colour of a pass.
    expect(verdicts[0]!.colour).toBe('rgb(207, 34, 46)')
    expect(verdicts[1]!.colour).toBe(verdicts[2]!.colour)
    expect(verdicts[1]!.colour).not.toBe(verdicts[0]!.colour)
    expect(problems).toEqual([])
    await page.close()
  })

  it('every server cell is its revision’s area in results.json, and the failing one leads to the check that broke the revision', async () => {
    const page = await open('revisions')
    const cells = await page.locator('a.cell').evaluateAll((links) => links.map((a) => ({ href: a.getAttribute('href')!, tone: (a as HTMLElement).dataset.tone, count: Number((a as HTMLElement).dataset.count) })))
    const expected = revisions.suites.flatMap((suite, i) =>
      areasOf(suite).map(({ checks }, k) => {
        const counts = tally(checks)
        const tone = TONES.find((t) => counts[t] > 0)!
        return { href: `#suite-${i}-area-${k}`, tone, count: counts[tone] }
      }),
    )
    // Row by row (area), a column per revision: the same cells, in the matrix's order.
    expect([...cells].sort((a, b) => order(a.href) - order(b.href))).toEqual(expected)
    const fail = page.locator('a.cell.fail')
    expect(await fail.count()).toBe(1)
    await fail.click()
    const target = (await fail.getAttribute('href'))!.slice(1)
    expect(target).toMatch(/^suite-0-area-\d+$/)
    const check = page.locator(`[id="${target}"] details.check[data-status="fail"]`)
    await check.locator('summary').click()
    expect(await check.locator('.id').textContent()).toBe('tools/call/echo')
    expect(await check.locator('.message').textContent()).toBe('the result breaks the 2025-03-26 CallToolResult schema: content[1].type: "resource_link" is not a content type of 2025-03-26 (it arrived in 2025-06-18)')
    expect(await check.locator('.spec a').getAttribute('href')).toBe('https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-03-26/schema.ts')
    expect(await page.locator('#suite-0 h2').textContent()).toMatch(/^Server checks \(2025-03-26\): /)
    expect(problems).toEqual([])
    await page.close()
  })
})

describe('a failed scenario’s wire diagram in Chromium', () => {
  it('the failing step is marked on the diagram, and the failing check links to it', async () => {
    const suite = failing.suites[0]!
    expect(suite.checks.find((c) => c.id === 'expect/call-3')?.status).toBe('fail')
    const page = await open('naive', { width: 1000, height: 900 })
    await page.locator('a.cell.fail').click()
    const diagram = page.locator('#suite-0 details.diagram')
    await diagram.locator(':scope > summary').click()
    const marked = diagram.locator('g.step.failed[data-failed~="expect/call-3"]')
    await expect.poll(() => marked.isVisible()).toBe(true)
    expect(await marked.locator('text').last().textContent()).toBe('✗ Step 4 · call echo — expect/call-3')
    // The band behind the step is drawn, red, and covers the step's row.
    const band = diagram.locator('rect.band[data-band="suite-0-step-4"]')
    expect(await band.evaluate((el) => getComputedStyle(el).stroke)).toBe('rgb(207, 34, 46)')
    const [bandBox, stepBox] = [await band.boundingBox(), await marked.boundingBox()]
    expect(bandBox!.y).toBeLessThanOrEqual(stepBox!.y)
    expect(bandBox!.y + bandBox!.height).toBeGreaterThanOrEqual(stepBox!.y + stepBox!.height)
    // The steps that passed are not marked; the plain text is one click away.
    expect(await diagram.locator('g.step:not(.failed)').count()).toBeGreaterThan(0)
    await diagram.locator('details.transcript-text > summary').click()
    expect(await diagram.locator('details.transcript-text pre').textContent()).toContain('# http-404-session-expiry over http')
    await diagram.locator('details.transcript-text > summary').click()
    await keepScreenshot('report-diagram.png', (path) => diagram.screenshot({ path }))

    const check = page.locator('details.check', { has: page.locator('.id', { hasText: /^expect\/call-3$/ }) })
    await check.locator('summary').click()
    expect(await check.getByRole('link', { name: 'Show it on the wire diagram' }).getAttribute('href')).toBe('#suite-0-step-4')
    expect(problems).toEqual([])
    await page.close()
  })

  it('the SVG is well-formed XML on its own', async () => {
    const html = await readFile(join(dir, 'naive', 'report.html'), 'utf8')
    const svg = /<svg [\s\S]*?<\/svg>/.exec(html)![0]
    const page = await browser.newPage()
    const error = await page.evaluate((text) => new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('parsererror')?.textContent ?? null, svg)
    expect(error).toBeNull()
    await page.close()
  })
})

/** Cells in page order: client suites by index, then server areas by suite and area. */
function order(href: string): number {
  const [, suite, area] = /^#suite-(\d+)(?:-area-(\d+))?$/.exec(href)!
  return Number(suite) * 1000 + Number(area ?? 0)
}
