/** Pure: how server mode tells a server of modern revisions only, and the sentences its checks cite. */
import { describe, expect, it } from 'vitest'
import { eraOf, modernSignal } from '../src/server/modern/detect.ts'
import { discoverIssues, judgeModernUnsupportedVersion } from '../src/server/modern/evaluate.ts'
import { MODERN_CHECKS } from '../src/server/modern/registry.ts'
import { renderChecksTable } from '../src/server/registry/table.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'

const error = (code: number, data?: unknown, status?: number): RpcOutcome => ({ kind: 'error', error: { code, message: 'm', ...(data !== undefined ? { data } : {}) }, wire: [], ...(status ? { http: { method: 'POST', status } } : {}) })
const result = (value: unknown): RpcOutcome => ({ kind: 'result', result: value, wire: [] })
const DISCOVER = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private' }

describe('eraOf: the signals 2026-07-28 defines, and nothing else', () => {
  it('a DiscoverResult, or UnsupportedProtocolVersionError (-32022) listing only modern versions, is a modern-only server', () => {
    expect(eraOf(error(-32022, { supported: ['2026-07-28'] }), result(DISCOVER))).toEqual({ era: 'modern-only', supported: ['2026-07-28'], revision: '2026-07-28' })
    // The refusal of initialize alone identifies it when the probe is broken: modern/discover then fails it.
    expect(eraOf(error(-32022, { supported: ['2026-07-28'] }), error(-32601))).toMatchObject({ era: 'modern-only', revision: '2026-07-28' })
  })

  it('a legacy refusal (any other error, a legacy error to the probe) is not: the legacy verdict stands', () => {
    expect(eraOf(error(-32602), error(-32601))).toEqual({ era: 'other' })
    expect(eraOf(error(-32000), { kind: 'timeout', afterMs: 1, wire: [] })).toEqual({ era: 'other' })
    // -32022 in a legacy server's own sense carries no list of versions.
    expect(eraOf(error(-32022), error(-32022, { supported: 'all' }))).toEqual({ era: 'other' })
  })

  it('a server that also lists a legacy version is dual-era: it had to counter-offer, so its refusal stays judged', () => {
    expect(eraOf(error(-32022, { supported: ['2026-07-28', '2025-06-18'] }), result({ ...DISCOVER, supportedVersions: ['2026-07-28', '2025-06-18'] }))).toEqual({ era: 'other' })
  })

  it('a modern revision the kit does not know is modern-only with nothing to judge it by', () => {
    expect(eraOf(error(-32601), result({ ...DISCOVER, supportedVersions: ['2027-03-01'] }))).toEqual({ era: 'modern-only', supported: ['2027-03-01'] })
  })

  it('bounds what the server lists before any message shows it', () => {
    const many = Array.from({ length: 50 }, () => `2026-07-28${'x'.repeat(500)}`)
    const signal = modernSignal(result({ supportedVersions: many }))!
    expect(signal).toHaveLength(10)
    expect(signal[0]!.length).toBeLessThanOrEqual(41)
  })
})

describe('the modern checks', () => {
  it('DiscoverResult: every required field of the 2026-07-28 schema is checked', () => {
    expect(discoverIssues(DISCOVER)).toEqual([])
    for (const field of ['resultType', 'supportedVersions', 'capabilities', 'ttlMs', 'cacheScope']) {
      const broken: Record<string, unknown> = { ...DISCOVER }
      delete broken[field]
      expect(discoverIssues(broken), field).toEqual([expect.stringMatching(new RegExp(`^${field}: required`))])
    }
    expect(discoverIssues({ ...DISCOVER, ttlMs: -1 })).toEqual(['ttlMs: required number ≥ 0, found -1'])
  })

  it('UnsupportedProtocolVersionError: the code, the data, and over HTTP the status', () => {
    expect(judgeModernUnsupportedVersion(error(-32022, { supported: ['2026-07-28'], requested: '1999-01-01' }, 400), '1999-01-01', 'http').status).toBe('pass')
    expect(judgeModernUnsupportedVersion(error(-32602, undefined, 400), '1999-01-01', 'http')).toMatchObject({ status: 'fail', spec: { keyword: 'MUST' } })
    expect(judgeModernUnsupportedVersion(error(-32022, { supported: ['2026-07-28'] }, 400), '1999-01-01', 'http')).toMatchObject({ status: 'fail', spec: { keyword: 'SCHEMA' }, message: expect.stringMatching(/error\.data\.requested: required string/) })
    expect(judgeModernUnsupportedVersion(error(-32022, { supported: ['2026-07-28'], requested: '1999-01-01' }), '1999-01-01', 'stdio').status).toBe('pass')
  })

  // RECOMMENDED is SHOULD by another name (RFC 2119, section 3).
  it('each sentence’s recorded keyword is the strongest the sentence states', () => {
    for (const def of MODERN_CHECKS) {
      for (const rule of def.rules) {
        if (rule.keyword === 'SCHEMA') continue
        const strongest = /MUST NOT/.test(rule.quote) ? 'MUST NOT' : /MUST/.test(rule.quote) ? 'MUST' : /SHOULD NOT/.test(rule.quote) ? 'SHOULD NOT' : /SHOULD|RECOMMENDED/.test(rule.quote) ? 'SHOULD' : 'NONE'
        expect(rule.keyword, `${def.id} ${rule.case ?? ''}`).toBe(strongest)
      }
    }
  })

  it('the docs table lists each of them once, under 2026-07-28', () => {
    const table = renderChecksTable()
    expect(table).toContain('## modern (2026-07-28)')
    for (const def of MODERN_CHECKS) expect(table.split(`\`${def.id}\``).length - 1, def.id).toBe(1)
  })
})
