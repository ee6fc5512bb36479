/** Where the start benchmark finds the seed package (first-tool.ts), and what it says when it cannot. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { seedCandidates, seedInstall } from './first-tool.ts'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function modules(packages: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'seed-'))
  made.push(root)
  for (const name of packages) {
    mkdirSync(join(root, 'node_modules', name), { recursive: true })
    writeFileSync(join(root, 'node_modules', name, 'package.json'), '{}')
  }
  return join(root, 'node_modules')
}

describe('seedInstall', () => {
  it('takes the first install that has both the seed and its Cordis', () => {
    const partial = modules(['@deepseek-ai/dsh-mcp-client'])
    const whole = modules(['@deepseek-ai/dsh-mcp-client', '@deepseek-ai/cordis'])
    expect(seedInstall([partial, whole])).toEqual({ dir: join(whole, '..') })
  })

  it('says how to install it, and where it looked, when none has it', () => {
    const empty = modules([])
    const found = seedInstall([empty])
    expect(found).toEqual({ missing: expect.stringContaining('npm ci --prefix hosts/dsh') })
    expect((found as { missing: string }).missing).toContain(empty)
  })

  it('looks first where BENCH_SEED_MODULES says', () => {
    expect(seedCandidates({ BENCH_SEED_MODULES: '/x/node_modules' })[0]).toBe('/x/node_modules')
    expect(seedCandidates({})).toHaveLength(2)
  })
})
