import { execFile, execFileSync } from 'node:child_process'
import { truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadBehaviourFile } from '../src/index.ts'
import { tempDir } from './support/fixtures.ts'

/** A behaviour file that is a FIFO (the read would block forever), a device, a directory or huge: one line, at once. */
const bin = fileURLToPath(new URL('../bin/mcp-fixture.js', import.meta.url))

describe('behaviour files that would block or exhaust the fixture', () => {
  const dir = tempDir()
  const fifo = join(dir, 'behaviour.yaml')
  execFileSync('mkfifo', [fifo])
  const big = join(dir, 'big.yaml')
  writeFileSync(big, '')
  truncateSync(big, 120 * 1024 * 1024)

  it.each([
    [fifo, 'it is a FIFO (named pipe), not a regular file: give the path of a file'],
    ['/dev/zero', 'it is a character device, not a regular file: give the path of a file'],
    [dir, 'it is a directory, not a regular file: give the path of a file'],
    [big, 'it is 125829120 bytes, above the limit of 16777216 bytes (16 MiB)'],
  ])('loadBehaviourFile refuses %s', (path, reason) => {
    expect(() => loadBehaviourFile(path)).toThrow(`Cannot read fixture behaviour ${path}: ${reason}`)
  })

  it('mcp-fixture exits 2 with one line for a FIFO', async () => {
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [bin, fifo], { timeout: 20_000 }, (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
      ),
    )
    expect(code).toBe(2)
    expect(stderr).toBe(`mcp-fixture: Cannot read fixture behaviour ${fifo}: it is a FIFO (named pipe), not a regular file: give the path of a file\n`)
  })
})
