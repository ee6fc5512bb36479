/**
 * The official MCP conformance suite as a referee: every client scenario its frozen requirement
 * sets score, for 2025-11-25 and 2026-07-28, run against the plugin (compat/official, the suite
 * pinned in its own lockfile and run under the pinned Node 22). Every scored scenario passes, apart
 * from those compat/official/known-gaps.mjs lists with their reason, and a listed one that passes
 * fails the test too, so the list only ever shrinks with the work that closes it.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ES modules without declarations
import { runClientScenarios } from '../../compat/official/client-scenarios.mjs'
// @ts-expect-error plain ES modules without declarations
import { KNOWN_GAPS } from '../../compat/official/known-gaps.mjs'
// @ts-expect-error plain ES modules without declarations
import { ensureNode22 } from '../../scripts/node22.mjs'

interface Row {
  scenario: string
  scored: boolean
  verdict: 'pass' | 'fail' | 'no result'
  failing: string[]
}

const ROOT = resolve(import.meta.dirname, '../..')
const REVISIONS = Object.keys(KNOWN_GAPS as Record<string, Record<string, string>>)
let node22: string
let out: string

beforeAll(() => {
  execFileSync('npm', ['ci', '--prefix', 'compat/official', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: ROOT, stdio: 'ignore' })
  node22 = ensureNode22() as string
  out = mkdtempSync(join(tmpdir(), 'mcp-official-clients-'))
})
afterAll(() => rmSync(out, { recursive: true, force: true }))

describe.each(REVISIONS)('the official client requirement set %s', (revision) => {
  it('passes every scored scenario but the known gaps, each gap still failing', async () => {
    const rows = (await runClientScenarios(node22, revision, { dir: join(out, revision), unscored: false })) as Row[]
    const gaps = (KNOWN_GAPS as Record<string, Record<string, string>>)[revision]!
    const scored = rows.filter((row) => row.scored)
    expect(scored.length).toBeGreaterThan(0)
    const unexpected = scored.filter((row) => row.verdict !== 'pass' && !(row.scenario in gaps)).map((row) => `${row.scenario}: ${row.verdict} ${row.failing.slice(0, 2).join('; ')}`)
    const closed = scored.filter((row) => row.verdict === 'pass' && row.scenario in gaps).map((row) => `${row.scenario} passes now: remove it from known-gaps.mjs`)
    const stale = Object.keys(gaps).filter((scenario) => !scored.some((row) => row.scenario === scenario)).map((scenario) => `${scenario} is not scored at ${revision}`)
    expect([...unexpected, ...closed, ...stale]).toEqual([])
  }, 900_000)
})
