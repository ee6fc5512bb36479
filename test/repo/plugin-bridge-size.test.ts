import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { expect, it } from 'vitest'

// The plugin's tools bridge stays small enough to read: plugin/src without its optional parts
// (asks/, features/, oauth/, each loaded on its own) is capped below 5,000 lines. Code that grows
// it and that another package could use belongs in process/ (ARCHITECTURE.md, "The packages").

const SRC = resolve(import.meta.dirname, '../../plugin/src')
/** The optional parts, outside the cap: each is its own subsystem with its own entry or loader. */
const OUTSIDE = new Set(['asks', 'features', 'oauth'])
const CAP = 5_000

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return dir === SRC && OUTSIDE.has(name) ? [] : sources(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

/** Lines as `wc -l` counts them: newline characters. */
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1

it(`plugin/src minus asks/, features/ and oauth/ stays under ${CAP} lines`, () => {
  const files = sources(SRC).map((path) => ({ file: relative(SRC, path), lines: lines(path) }))
  const total = files.reduce((sum, { lines }) => sum + lines, 0)
  const largest = [...files].sort((a, b) => b.lines - a.lines).slice(0, 5).map(({ file, lines }) => `${file} ${lines}`)
  expect(
    total,
    `the plugin's tools bridge has ${total} lines (cap ${CAP}; largest: ${largest.join(', ')}). ` +
      'Move shareable low-level code (no Cordis, no plugin config) to process/ and import it from @mcp-bridge/process; do not raise the cap.',
  ).toBeLessThan(CAP)
})
