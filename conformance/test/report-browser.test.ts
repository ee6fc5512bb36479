/**
 * report.html from a real run, driven in Chromium: the failure filter, an expanded check, no CSP
 * violations, and junit.xml parsed by a real XML parser. Leaves a screenshot in .artifacts/.
 * The browser is the one @sparticuz/chromium ships (test/support/chromium.ts), so it never skips.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunReport } from '../src/model.ts'
import { assembleReport } from '../src/report/assemble.ts'
import { writeReports } from '../src/report/write.ts'
import { runServerSuite } from '../src/server/run.ts'
import { everythingTarget } from '../src/server/target.ts'
import { launchChromium, type LaunchedChromium } from '../../test/support/chromium.ts'

const ARTIFACTS = resolve(import.meta.dirname, '../../.artifacts')

let chromium: LaunchedChromium | undefined
let browser: Browser
let dir: string
let report: RunReport

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-html-'))
  const { target, calls } = everythingTarget()
  const suite = await runServerSuite(target, { calls })
  report = assembleReport({ suites: [suite], baseline: [], tool: { name: 'mcp-conformance', version: '0.1.0' }, startedAt: new Date().toISOString(), durationMs: suite.durationMs })
  await writeReports(report, dir)
  chromium = await launchChromium()
  browser = chromium.browser
})

afterAll(async () => {
  try {
    await chromium?.close()
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true })
  }
})

describe('report.html in Chromium', () => {
  it('filters to failures, expands one, and shows its message, spec link and wire excerpt', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 } })
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(pathToFileURL(join(dir, 'report.html')).href)

    const checks = page.locator('details.check')
    const total = report.suites[0]!.checks.length
    const failing = report.suites[0]!.checks.filter((c) => c.status === 'fail')
    expect(failing.length).toBeGreaterThan(0)
    await expect.poll(() => checks.filter({ visible: true }).count()).toBe(total)

    await page.getByRole('button', { name: `Failures (${failing.length})` }).click()
    expect(await page.getByRole('button', { name: `Failures (${failing.length})` }).getAttribute('aria-pressed')).toBe('true')
    const visible = checks.filter({ visible: true })
    expect(await visible.count()).toBe(failing.length)
    expect(await visible.evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.status))).toEqual(failing.map(() => 'fail'))

    const first = visible.first()
    await first.locator('summary').click()
    expect(await first.getAttribute('open')).not.toBeNull()
    await expect.poll(() => first.locator('.message').isVisible()).toBe(true)
    expect(await first.locator('.message').textContent()).toBe(failing[0]!.message)
    const link = first.locator('.spec a')
    expect(await link.getAttribute('href')).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\//)
    expect(await first.locator('h3', { hasText: 'Wire' }).isVisible()).toBe(true)
    expect(await first.locator('pre').last().textContent()).toContain('"method": "tools/call"')

    await mkdir(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'report-failures.png'), fullPage: true })

    await page.getByRole('button', { name: /^Errors \(0\)$/ }).click()
    expect(await checks.filter({ visible: true }).count()).toBe(0)
    expect(await page.locator('.empty').isVisible()).toBe(true)
    expect(problems).toEqual([])
    await page.close()
  })

  it('junit.xml parses as XML in the browser', async () => {
    const xml = await readFile(join(dir, 'junit.xml'), 'utf8')
    const page = await browser.newPage()
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml')
      return { error: doc.querySelector('parsererror')?.textContent ?? null, cases: doc.querySelectorAll('testcase').length }
    }, xml)
    expect(parsed).toEqual({ error: null, cases: report.suites[0]!.checks.length })
    await page.close()
  })
})
