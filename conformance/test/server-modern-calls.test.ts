/**
 * modern/tool-call against the scripted 2026-07-28 server, whose echo tool has an outputSchema and
 * a typed input: correct, the call's structured result and the refused bad arguments pass; each
 * breach gets that check's verdict at the keyword of the sentence it breaks, and nothing else.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import type { ServerRunOptions } from '../src/server/run.ts'
import { BREACHES } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { runModernServer } from './server-helpers.ts'

const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: [{ name: 'echo', arguments: { text: 'hi' } }] }

function run(breach?: string, options: Partial<ServerRunOptions> = OPTIONS): Promise<SuiteResult> {
  return runModernServer(breach, options)
}

describe('modern/tool-call', () => {
  it('passes a conforming structured result and a refusal of bad arguments', async () => {
    const suite = await run()
    expect(flagged(suite)).toEqual([])
    const check = find(suite, 'modern/tool-call')
    expect(check.status, check.message).toBe('pass')
    expect(check.message).toMatch(/structuredContent conforms to the outputSchema/)
    expect(check.message).toMatch(/calling "echo" with arguments that give "text" the value 12345 returned an isError result/)
  }, 60_000)

  it('skips without a --call: the kit calls no tool on its own', async () => {
    const check = find(await run(undefined, { ...OPTIONS, calls: [] }), 'modern/tool-call')
    expect(check).toMatchObject({ status: 'skip', message: expect.stringMatching(/^no tool was named with --call/) })
  }, 60_000)

  it.each([
    ['structured-mismatch', 'fail', /^structuredContent violates the outputSchema: /, 'MUST'],
    ['structured-no-text', 'warn', /^structuredContent conforms, but no text block carries it/, 'SHOULD'],
    ['input-unvalidated', 'fail', /^calling "echo" with arguments that give "text" the value 12345 reported success: the server did not validate its input$/, 'MUST'],
  ])('%s: %s', async (breach, status, message, keyword) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await run(breach)
    expect(find(suite, 'modern/tool-call')).toMatchObject({ status, message: expect.stringMatching(message), spec: { keyword } })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^modern\/tool-call: /)])
    expect(exitCodeOf([suite], [])).toBe(status === 'fail' ? 1 : 0)
  }, 60_000)
})
