/**
 * Every server-binding keyword sentence of each extracted revision is judged by a check or carries
 * one reason it is not, and every rule that quotes a keyword sentence quotes one the extract holds.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script, no declarations
import { plain, sentences as split, units } from '../../scripts/extract-spec-sentences.mjs'
import { coverageOf } from '../src/server/registry/sentences/registries.ts'
import { EXTRACTED_REVISIONS, loadSentences } from '../src/server/registry/sentences/data.ts'
import { isReason } from '../src/server/registry/sentences/reasons.ts'

describe.each(EXTRACTED_REVISIONS)('the keyword sentences of %s', (revision) => {
  const file = loadSentences(revision)
  const result = coverageOf(file)

  it('are pinned to a commit of the specification’s repository', () => {
    expect(file.source.commit).toMatch(/^[0-9a-f]{40}$/)
    expect(file.sentences.length).toBeGreaterThan(100)
  })

  it('each bind the server by the party rule or a reviewed override, with a keyword and a unique id', () => {
    expect(new Set(file.sentences.map((s) => s.id)).size).toBe(file.sentences.length)
    for (const s of file.sentences) expect(s.text, s.id).toMatch(/\b(MUST|SHOULD|REQUIRED|SHALL|RECOMMENDED)\b/)
  })

  it('leave none that binds the server unaccounted for', () => {
    expect(result.unaccounted.map((s) => `${s.id}: ${s.text}`)).toEqual([])
  })

  it('give no judged sentence a reason too, and no reason that is not listed', () => {
    expect(result.contradicted.map((s) => s.id)).toEqual([])
    for (const s of file.sentences) {
      if (s.reason !== undefined) expect(isReason(s.reason), `${s.id}: ${s.reason}`).toBe(true)
      if (!s.binds) expect(s.reason ?? s.checks, `${s.id} does not bind the server`).toBeUndefined()
    }
  })

  it('hold every keyword sentence a rule in force quotes, and name only checks that exist', () => {
    expect(result.missingQuotes).toEqual([])
    expect(result.unknownChecks).toEqual([])
  })
})

describe('the extractor', () => {
  it('removes markup and keeps the wording', () => {
    expect(plain('Servers **MUST** send a [`ping`](/x) to the _latest_ \\_client\\_ &amp; server')).toBe('Servers MUST send a ping to the latest _client_ & server')
    expect(split('Requests MUST include an ID (e.g. 1). Unlike JSON-RPC, it MUST NOT be null.')).toEqual(['Requests MUST include an ID (e.g. 1).', 'Unlike JSON-RPC, it MUST NOT be null.'])
  })

  it('reads a keyword lead through each of its items, and binds by the clause before the keyword', () => {
    const page = [
      '## Rules',
      '',
      'Servers **MUST**:',
      '',
      '- Validate all tool inputs',
      '- Rate limit tool invocations',
      '',
      'If the server supports it, it **MUST** answer. When sending to the server, the client **SHOULD** wait.',
      '',
      '```json',
      '{ "MUST": 1 }',
      '```',
      '',
      '- `inputSchema`: schema',
      '  - **MUST** be an object',
    ].join('\n')
    const got = units(page, 'server/tools').map((u: { anchor: string; text: string; parties: string[]; lead?: string }) => [u.anchor, u.lead ?? '', u.text, u.parties.join()])
    expect(got).toEqual([
      ['rules', '', 'Servers MUST: Validate all tool inputs', 'server'],
      ['rules', '', 'Servers MUST: Rate limit tool invocations', 'server'],
      ['rules', '', 'If the server supports it, it MUST answer.', 'server'],
      ['rules', '', 'When sending to the server, the client SHOULD wait.', 'client'],
      ['rules', 'inputSchema: schema', 'MUST be an object', 'server'],
    ])
  })

  it('leaves a keyword with no party named unbound on the authorization page, in one file or a directory', () => {
    const page = '## Token handling\n\nAccess tokens **MUST NOT** be included in the URI query string.\n'
    for (const name of ['basic/authorization', 'basic/authorization/index']) expect(units(page, name).map((u: { parties: string[] }) => u.parties), name).toEqual([['unnamed']])
    expect(units(page, 'basic/transports/index').map((u: { parties: string[] }) => u.parties)).toEqual([['both']])
  })
})
