import { execFileSync } from 'node:child_process'
import { existsSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readInputFile, readInputFileSync } from '../src/index.ts'
import { makeTempDir } from '../src/temp-dir.ts'

/**
 * Files a user names are opened without blocking and read to a cap. A FIFO with no writer would
 * block open() itself forever: these tests would hang, not fail, if it did.
 */
const dir = makeTempDir('input-file-test-')
afterAll(() => dir.remove())

const fifo = join(dir.path, 'fifo.yaml')
execFileSync('mkfifo', [fifo])
const big = join(dir.path, 'big.yaml')
// Sparse: 120 MB by its size, no disk used. Refused by its size, never read.
writeFileSync(big, '')
truncateSync(big, 120 * 1024 * 1024)
const small = join(dir.path, 'small.yaml')
writeFileSync(small, 'a: 1\n')

const options = { maxBytes: 1024 * 1024, what: 'the config file' }

describe.each([
  ['readInputFileSync', async (path: string, given = options) => readInputFileSync(path, given)],
  ['readInputFile', (path: string, given = options) => readInputFile(path, given)],
] as const)('%s', (name, read) => {
  it('reads a regular file', async () => {
    expect(await read(small)).toBe('a: 1\n')
  })

  it.each([
    [fifo, 'is a FIFO (named pipe), not a regular file: give the path of a file'],
    ['/dev/zero', 'is a character device, not a regular file: give the path of a file'],
    [dir.path, 'is a directory, not a regular file: give the path of a file'],
    [big, 'is 125829120 bytes, above the limit of 1048576 bytes (1 MiB)'],
  ])('refuses %s in one line, at once', async (path, reason) => {
    const started = performance.now()
    await expect(read(path)).rejects.toThrow(`the config file ${path} ${reason}`)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('reads a file of several chunks whole', async () => {
    const text = 'x'.repeat(2.5 * 1024 * 1024)
    const large = join(dir.path, `large-${name}.yaml`)
    writeFileSync(large, text)
    expect(await read(large, { ...options, maxBytes: 4 * 1024 * 1024 })).toBe(text)
  })

  it.runIf(existsSync('/proc/self/status'))('refuses a file that turns out longer than its size said, at the cap', async () => {
    // /proc files give size 0 and then have content: as a file that grows while it is read.
    await expect(read('/proc/self/status', { ...options, maxBytes: 16 })).rejects.toThrow(
      'the config file /proc/self/status is over 16 bytes (it grew while it was read), above the limit of 16 bytes (16 B)',
    )
  })

  it('says why a missing file cannot be read', async () => {
    await expect(read(join(dir.path, 'missing.yaml'))).rejects.toMatchObject({ reason: expect.stringMatching(/^cannot be read: ENOENT/) })
  })
})
