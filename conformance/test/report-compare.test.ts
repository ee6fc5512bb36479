/**
 * --compare: two results.json files that differ in every way the comparison reports (a new
 * failure, an error, a fixed check, a new suite, a new check, a removed check, a status change),
 * and the places the comparison is shown: the console summary and report.html.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunReport } from '../src/model.ts'
import { compareRuns, hasChanges, parsePreviousResults } from '../src/report/compare.ts'
import { formatHtml } from '../src/report/html.ts'
import { formatSummary } from '../src/report/summary.ts'

const load = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as RunReport
const previous = load('results-previous.json')
const current = load('results-current.json')
const comparison = compareRuns(previous, current, 'results-previous.json')
const keys = (changes: Array<{ suite: string; check: string }>) => changes.map((c) => `${c.suite}:${c.check}`)

describe('compareRuns', () => {
  it('new failures: a pass that now fails or errors, told apart by transport', () => {
    expect(keys(comparison.newFailures)).toEqual(['dotted-names [stdio]:expect/public-names', 'server [stdio]:lifecycle/ping'])
    expect(comparison.newFailures[1]).toMatchObject({ before: 'pass', after: 'error' })
  })

  it('fixed checks: a failure that now passes', () => {
    expect(comparison.fixed).toEqual([{ suite: 'server [stdio]', check: 'tools/call/x', before: 'fail', after: 'pass' }])
  })

  it('new checks, in a new suite and in an old one, with their status', () => {
    expect(keys(comparison.added)).toEqual(['clean-discovery [http]:expect/tools', 'server [stdio]:resources/read'])
    expect(comparison.added.map((c) => [c.before, c.after])).toEqual([
      [undefined, 'pass'],
      [undefined, 'fail'],
    ])
  })

  it('removed checks, with the status they had', () => {
    expect(comparison.removed).toEqual([{ suite: 'server [stdio]', check: 'prompts/pagination', before: 'skip' }])
  })

  it('other status changes, and what stayed the same (an expected failure that still fails included)', () => {
    expect(comparison.changed).toEqual([{ suite: 'server [stdio]', check: 'tools/descriptions', before: 'pass', after: 'warn' }])
    expect(comparison.unchanged).toBe(5)
    expect(hasChanges(comparison)).toBe(true)
    expect(hasChanges(compareRuns(current, current, 'same'))).toBe(false)
  })
})

describe('parsePreviousResults', () => {
  it('accepts a results.json and says why anything else is not one', () => {
    expect(parsePreviousResults(readFileSync(join(import.meta.dirname, 'fixtures', 'results-previous.json'), 'utf8')).ok).toBe(true)
    expect(parsePreviousResults('{')).toMatchObject({ ok: false, error: expect.stringMatching(/^is not JSON/) })
    expect(parsePreviousResults('{"formatVersion":2,"suites":[]}')).toEqual({ ok: false, error: 'is not a results.json of format version 1' })
    expect(parsePreviousResults('{"formatVersion":1,"suites":[{"id":"x"}]}')).toEqual({ ok: false, error: 'has suites without ids or checks of a known status: suites[0].checks is not an array' })
    expect(parsePreviousResults('{"formatVersion":1,"suites":[{"id":"x","checks":[{"id":"c","status":"fail\\n::error::x"}]}]}')).toEqual({ ok: false, error: 'has suites without ids or checks of a known status: suites[0].checks[0].status is not one of pass, fail, warn, skip, error' })
  })

  it('says where a file is not JSON in one line, its bytes escaped, never raw (the parser quotes the source)', () => {
    for (const text of ['\u001b]52;c;cHduZWQ=\u0007\u001b[2J\n::error title=forged::x\n{}', '\n::error::forged-json\n', 'x\n##[add-mask]y', '{"formatVersion":1,\u001b]52;c;x\u0007']) {
      const parsed = parsePreviousResults(text)
      expect(parsed.ok).toBe(false)
      const error = parsed.ok ? '' : parsed.error
      expect(error).toMatch(/^is not JSON \(/)
      // eslint-disable-next-line no-control-regex -- asserting their absence
      expect(error).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
      expect(error).not.toContain('##[')
    }
    const errorOf = (text: string) => (parsePreviousResults(text) as { error: string }).error
    expect(errorOf('\u001b[2J')).toContain("Unexpected token '\\x1b'")
    expect(errorOf('{"formatVersion":1,\u001b')).toMatch(/position 19/)
  })

  it('redacts and bounds the ids of the previous run that the comparison shows (its removed checks)', () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`
    const old = structuredClone(previous)
    old.suites[0]!.checks[0]!.id = `leaked ${token} ${'x'.repeat(100_000)}`
    const removed = compareRuns(old, current, 'old').removed.find((c) => c.check.startsWith('leaked'))!
    expect(removed.check).not.toContain(token)
    expect(removed.check.length).toBeLessThan(300)
  })
})

describe('where the comparison is shown', () => {
  it('the console summary counts each kind and lists the checks', () => {
    const text = formatSummary(current, [], { comparison })
    expect(text).toContain('Since results-previous.json: 2 new failures, 1 fixed, 2 new checks, 1 removed, 1 other change')
    expect(text).toMatch(/new failure +dotted-names \[stdio\]:expect\/public-names \(pass → fail\)/)
    expect(text).toMatch(/fixed +server \[stdio\]:tools\/call\/x \(fail → pass\)/)
    expect(text).toMatch(/new check +server \[stdio\]:resources\/read \(fail\)/)
    expect(text).toMatch(/removed +server \[stdio\]:prompts\/pagination \(was skip\)/)
  })

  it('report.html has a section per kind of change', () => {
    const html = formatHtml(current, { comparison })
    const section = /<section class="changes"[\s\S]*?<\/section>/.exec(html)?.[0] ?? ''
    expect(section).toContain('Since results-previous.json')
    for (const [heading, n] of [['New failures', 2], ['Fixed', 1], ['New checks', 2], ['Removed checks', 1], ['Other changes', 1]] as const) {
      expect(section).toMatch(new RegExp(`<h3>${heading} \\(${n}\\)</h3>`))
    }
    expect(section).toContain('server [stdio]:prompts/pagination')
    expect(formatHtml(current)).not.toContain('class="changes"')
  })
})
