import { describe, expect, it } from 'vitest'
import type { CheckResult, SuiteResult } from '../src/model.ts'
import { cellOf } from '../src/client/table.ts'

const check = (id: string, status: CheckResult['status'], message = 'seen'): CheckResult => ({ id, title: id, status, message, spec: { ref: 'MCP §x', url: 'https://spec/x' } })
const suite = (id: string, transport: 'stdio' | 'http', checks: CheckResult[]): SuiteResult => ({ id, title: id, kind: 'client', target: 't', transport, checks, durationMs: 1 })

describe('docs/CLIENTS.md', () => {
  it('gives each run one verdict: a harness error first, then n/a, fail, warn, pass', () => {
    expect(cellOf(suite('a', 'http', [check('x', 'fail'), check('harness/run', 'error')]))).toBe('error')
    expect(cellOf(suite('a', 'http', [check('applies/scenario', 'skip')]))).toBe('n/a')
    expect(cellOf(suite('a', 'http', [check('x', 'warn'), check('y', 'fail')]))).toBe('fail')
    expect(cellOf(suite('a', 'http', [check('x', 'warn'), check('y', 'skip')]))).toBe('warn')
    expect(cellOf(suite('a', 'http', [check('x', 'pass'), check('y', 'skip')]))).toBe('pass')
    expect(cellOf(undefined)).toBeUndefined()
  })
})
