import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { StderrTail, stderrExcerpt } from '../src/index.ts'

/** What a real Node server that cannot find its entry file writes before it dies. */
function nodeCrashTail(): string[] {
  const { stderr } = spawnSync(process.execPath, ['-e', "require('/no/such/dir/server.js')"], { encoding: 'utf8' })
  const tail = new StderrTail()
  tail.push(stderr)
  return tail.tail()
}

describe('stderrExcerpt: the stderr lines an error about a dead child quotes', () => {
  it("keeps the line that says why a Node server died, though its stack pushed it out of the last five", () => {
    const tail = nodeCrashTail()
    expect(tail.slice(-5).some((line) => line.includes('Cannot find module'))).toBe(false)
    const excerpt = stderrExcerpt(tail)
    expect(excerpt[0]).toBe("Error: Cannot find module '/no/such/dir/server.js'")
    expect(excerpt[1]).toMatch(/^… \d+ more lines …$/)
    expect(excerpt.slice(2)).toEqual(tail.slice(-4))
  })

  it('is the last lines when they name the failure already, or when no line does', () => {
    const plain = ['starting', 'listening', 'one', 'two', 'three', 'four', 'five']
    expect(stderrExcerpt(plain)).toEqual(plain.slice(-5))
    const named = ['a', 'b', 'TypeError: x is not a function', 'c', 'd', 'e', 'f']
    expect(stderrExcerpt(named)).toEqual(named.slice(-5))
  })

  it('takes the nearest reason above the last lines, of any common runtime', () => {
    const python = ['Traceback (most recent call last):', '  File "server.py", line 3', "ModuleNotFoundError: No module named 'mcp'", 'x', 'y', 'z', 'w', 'v']
    expect(stderrExcerpt(python)).toEqual(["ModuleNotFoundError: No module named 'mcp'", '… 1 more line …', 'y', 'z', 'w', 'v'])
    const go = ['panic: runtime error: index out of range', 'goroutine 1 [running]:', 'main.main()', 'a', 'b', 'c', 'd']
    expect(stderrExcerpt(go)[0]).toBe('panic: runtime error: index out of range')
    expect(stderrExcerpt(['short', 'tail'])).toEqual(['short', 'tail'])
  })
})
