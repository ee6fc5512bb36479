/** A usage error quotes what was typed; its control characters never reach the terminal raw. */
import { describe, expect, it } from 'vitest'
import { parseCommand } from '../src/cli.ts'

describe('usage errors', () => {
  it('an invalid --call with ESC, BEL, C1 and a bidi override is echoed with escapes', () => {
    const result = parseCommand(['server', '--call', 'a\x1b[31mX\x07\u0085\u202e=[', '--', 'true'], process.cwd())
    expect(result.ok).toBe(false)
    const error = (result as { error: string }).error
    // eslint-disable-next-line no-control-regex -- the point: no control character may remain
    expect(error).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/)
    expect(error).toContain('a\\x1b[31mX\\x07')
  })
})
