import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadBaseline } from '../src/baseline.ts'
import { loadScenarios } from '../src/client/load.ts'

/**
 * A baseline or a scenario file that is a FIFO (the read would block forever), a device, a
 * directory or huge is refused with one line, at once.
 */
const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')
const dir = mkdtempSync(join(tmpdir(), 'kit-inputs-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const fifo = join(dir, 'baseline.yaml')
execFileSync('mkfifo', [fifo])
const big = join(dir, 'big.yaml')
writeFileSync(big, '')
truncateSync(big, 120 * 1024 * 1024)

describe('--baseline', () => {
  it.each([
    [fifo, 'is a FIFO (named pipe), not a regular file: give the path of a file'],
    ['/dev/zero', 'is a character device, not a regular file: give the path of a file'],
    [dir, 'is a directory, not a regular file: give the path of a file'],
    [big, 'is 125829120 bytes, above the limit of 4194304 bytes (4 MiB)'],
  ])('loadBaseline refuses %s', async (path, reason) => {
    expect(await loadBaseline(path)).toEqual({ ok: false, error: `file ${path} ${reason}` })
  })

  it('mcp-conformance exits 2 with one line before anything runs', async () => {
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(process.execPath, [BIN, 'client', '--baseline', fifo, '--report-dir', join(dir, 'reports')], { timeout: 30_000 }, (error, _stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
      ),
    )
    expect(code).toBe(2)
    expect(stderr).toBe(`mcp-conformance: baseline file ${fifo} is a FIFO (named pipe), not a regular file: give the path of a file\n`)
  })
})

describe('scenario files', () => {
  it('a FIFO among the scenarios is refused in one line', () => {
    const scenarios = mkdtempSync(join(dir, 'scenarios-'))
    execFileSync('mkfifo', [join(scenarios, 'blocked.yaml')])
    expect(() => loadScenarios(scenarios)).toThrow(`${join(scenarios, 'blocked.yaml')}: it is a FIFO (named pipe), not a regular file; move it out of the folder or rename it`)
  })
})
