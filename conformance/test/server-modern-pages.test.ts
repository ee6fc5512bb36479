/**
 * modern/pages against the scripted 2026-07-28 server whose prompts/list comes on two pages:
 * correct, the chain is followed to its end and passes; a second page with another cacheScope
 * fails under the caching MUST, a cursor that loops or is refused warns under the stable-cursors
 * SHOULD, and nothing else is flagged. A list on one page is not testable, never a verdict.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import type { ServerRunOptions } from '../src/server/run.ts'
import { BREACHES } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { runModernServer } from './server-helpers.ts'

const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000 }
const CHECK = 'modern/pages'

function run(breach: string | undefined, paged: boolean): Promise<SuiteResult> {
  return runModernServer(breach, OPTIONS, { prompts: true, paged })
}

describe('modern/pages', () => {
  it('two pages with one cacheScope pass, and nothing is flagged', async () => {
    const suite = await run(undefined, true)
    expect(flagged(suite)).toEqual([])
    expect(find(suite, CHECK)).toMatchObject({ status: 'pass', message: 'prompts/list: 2 pages, cacheScope "public" on each' })
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)

  it('lists on one page are not testable', async () => {
    const suite = await run(undefined, false)
    expect(find(suite, CHECK)).toMatchObject({ status: 'skip', message: 'Not testable: tools/list, prompts/list, resources/list fit one page; no page past the first to judge' })
  }, 60_000)

  it.each([
    ['pages-scope-changes', 'fail', 'MUST', /^prompts\/list page 2 \(cursor "fixture-page-2"\) has cacheScope "private", the first page "public"$/],
    ['pages-cursor-loop', 'warn', 'SHOULD', /^prompts\/list returned the cursor "fixture-page-2" again after 2 pages: a loop, so the listing never ends$/],
    ['pages-cursor-refused', 'warn', 'SHOULD', /^prompts\/list page 2 \(cursor "fixture-page-2"\) got JSON-RPC error -32602 \(Invalid cursor\): the server refused a cursor it issued itself$/],
  ])('%s: %s', async (breach, status, keyword, message) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await run(breach, true)
    expect(find(suite, CHECK)).toMatchObject({ status, message: expect.stringMatching(message), spec: { keyword } })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${CHECK}: `))])
    expect(exitCodeOf([suite], [])).toBe(status === 'fail' ? 1 : 0)
  }, 60_000)
})
