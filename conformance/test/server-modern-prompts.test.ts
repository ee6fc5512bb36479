/**
 * modern/prompt-content against the scripted 2026-07-28 server with prompts declared: correct, the
 * content of its prompts passes (image, audio, embedded text and blob, a resource link); each
 * breach of one sentence of the prompts page fails that check under that sentence, and nothing
 * else is flagged. Without prompts the check is not testable, never a verdict.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import type { ServerRunOptions } from '../src/server/run.ts'
import { BREACHES } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { mimeIssue } from '../src/server/modern/prompt-content.ts'
import { runModernServer } from './server-helpers.ts'

const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000 }
const CHECK = 'modern/prompt-content'

function run(breach: string | undefined, prompts: boolean): Promise<SuiteResult> {
  return runModernServer(breach, OPTIONS, { prompts })
}

describe('modern/prompt-content', () => {
  it('a server with well-formed prompts passes, and nothing is flagged', async () => {
    const suite = await run(undefined, true)
    expect(flagged(suite)).toEqual([])
    expect(find(suite, CHECK)).toMatchObject({ status: 'pass', message: 'prompts/get of greet: 1 content blocks, prompts/get of media: 5 content blocks' })
    expect(find(suite, 'modern/lists').message).toMatch(/prompts\/list: 3 prompts/)
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)

  it('a server without prompts is not testable', async () => {
    const suite = await run(undefined, false)
    expect(find(suite, CHECK)).toMatchObject({ status: 'skip', message: 'Not testable: the DiscoverResult declares no prompts' })
  }, 60_000)

  it.each([
    ['prompt-image-not-base64', /^prompts\/get of media returned image content with data "not base64!", which is not base64$/, 'The image data MUST be base64-encoded'],
    ['prompt-audio-no-mime', /^prompts\/get of media returned audio content with no mimeType$/, 'The audio data MUST be base64-encoded'],
    ['prompt-resource-bad-uri', /^prompts\/get of media returned an embedded resource whose uri "fixture:\/\/notes\/read me" is not an RFC 3986 URI$/, 'A valid resource URI'],
    ['prompt-resource-bad-mime', /^prompts\/get of media returned the embedded resource "fixture:\/\/notes\/readme" with mimeType "text", which is no MIME type$/, 'The appropriate MIME type'],
    ['prompt-resource-no-data', /^prompts\/get of media returned the embedded resource "fixture:\/\/notes\/readme" with neither text nor blob$/, 'Either text content or base64-encoded blob data'],
  ])('%s fails under the sentence it breaks', async (breach, message, quoted) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await run(breach, true)
    expect(find(suite, CHECK)).toMatchObject({ status: 'fail', message: expect.stringMatching(message), spec: { keyword: 'MUST', quote: expect.stringContaining(quoted) } })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${CHECK}: `))])
    expect(exitCodeOf([suite], [])).toBe(1)
  }, 60_000)
})

describe('mimeIssue', () => {
  it.each(['image/png', 'IMAGE/PNG', 'application/vnd.api+json', 'text/plain; charset=utf-8', 'text/plain;charset="utf-8"', 'audio/x-wav'])('%s is a MIME type', (type) => {
    expect(mimeIssue(type)).toBeUndefined()
  })
  it.each([['text'], [''], ['text/'], ['/plain'], ['text plain'], ['text/plain; charset'], [42]])('%s is not', (type) => {
    expect(mimeIssue(type)).toMatch(/which is no MIME type$/)
  })
})
