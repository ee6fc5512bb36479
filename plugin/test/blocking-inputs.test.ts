import { execFile, execFileSync } from 'node:child_process'
import { truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createFileHost } from '@mcp-bridge/host/loader'
import { tempDir } from './support/cleanup.ts'

/**
 * A cordis.yml that is a FIFO (the read would block forever), a device, a directory, or a file far
 * beyond any real config (a 120 MB one took over 120 s and 3.4 GB) is refused with one line, at once.
 */
const bin = fileURLToPath(new URL('../../host/bin/mcp-bridge.js', import.meta.url))

function files() {
  const dir = tempDir('bridge-inputs-')
  const fifo = join(dir, 'cordis.yml')
  execFileSync('mkfifo', [fifo])
  const big = join(dir, 'big.yml')
  writeFileSync(big, '')
  truncateSync(big, 120 * 1024 * 1024)
  return { dir, fifo, big }
}

function bridge(args: string[]): Promise<{ code: number; stderr: string; ms: number }> {
  const started = performance.now()
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 30_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr, ms: performance.now() - started })
    })
  })
}

describe('cordis.yml inputs that would block or exhaust the host', () => {
  it('the loader refuses a FIFO, a device, a directory and a 120 MB file, each in one line', async () => {
    const { dir, fifo, big } = files()
    const cases = [
      [fifo, 'the file is a FIFO (named pipe), not a regular file: give the path of a file'],
      ['/dev/zero', 'the file is a character device, not a regular file: give the path of a file'],
      [dir, 'the file is a directory, not a regular file: give the path of a file'],
      [big, 'the file is 125829120 bytes, above the limit of 1048576 bytes (1 MiB)'],
    ] as const
    for (const [file, message] of cases) {
      const started = performance.now()
      const host = await createFileHost({ file, logging: false, signals: false })
      expect(host.loaded).toMatchObject({ ok: false, errors: [{ message }] })
      expect(performance.now() - started).toBeLessThan(2_000)
      await host.dispose()
    }
  })

  it('mcp-bridge: a FIFO is a usage error, a 120 MB file a load error, each one line on stderr', async () => {
    const { fifo, big } = files()
    const notAFile = await bridge(['--config', fifo, 'tools'])
    expect(notAFile.code).toBe(2)
    expect(notAFile.stderr.split('\n')[0]).toBe(`mcp-bridge: the config file ${fifo} is not a file (pass --config FILE)`)
    const tooBig = await bridge(['--config', big, 'tools'])
    expect(tooBig.code).toBe(1)
    expect(tooBig.stderr.trim().split('\n')).toHaveLength(1)
    expect(tooBig.stderr).toContain('the file is 125829120 bytes, above the limit of 1048576 bytes (1 MiB)')
    expect(tooBig.ms).toBeLessThan(10_000)
  })
})
