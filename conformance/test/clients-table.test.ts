import { describe, expect, it } from 'vitest'
import type { CheckResult, SuiteResult } from '../src/model.ts'
import { cellOf, formatClientsTable } from '../src/client/table.ts'

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

  it('writes the matrix, one evidence line per failure with its rule, and the reasons for n/a', () => {
    const text = formatClientsTable(
      [
        { name: 'ours', about: 'plugin', suites: [suite('s1', 'stdio', [check('x', 'pass')]), suite('s2', 'http', [check('x', 'pass')])] },
        {
          name: 'theirs',
          about: 'driver | pinned',
          suites: [suite('s1', 'stdio', [check('expect/call-1', 'fail', 'expected an error,\n got | success')]), suite('s2', 'http', [check('applies/scenario', 'skip', 'not applicable: bridge only: names')])],
        },
      ],
      '# Title',
    )
    expect(text).toContain('| s1 [stdio] | ✅ pass | ❌ fail |')
    expect(text).toContain('| s2 [http] | ✅ pass | ➖ n/a |')
    expect(text).toContain('| theirs | driver \\| pinned |')
    expect(text).toContain('- fail · s1 [stdio] · `expect/call-1`: expected an error, got \\| success ([MCP §x](https://spec/x))')
    expect(text).toContain('- s2: bridge only: names')
    expect(text).toContain('| theirs | 0 | 1 | 0 | 1 | 0 |')
  })
})
