import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_DRIVER_LINE_BYTES } from '../src/client/driver/channel.ts'

/**
 * A driver is a program the user names, and its stdout is untrusted: one endless line (200 MiB
 * without a newline, streamed) is a harness error for that driver, exit 2 with the reports
 * written, while the memory the kit holds stays within a bound derived from the driver line
 * limit: the same run against a driver that refuses at once, plus three times the limit (the
 * held part of a line, the copy made when it is found too long, and the pipe's chunks). Without
 * the bound, the kit held the whole line (200 MiB and more, then a RangeError).
 */
const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')
const DRIVER = resolve(import.meta.dirname, 'support/hostile-driver.mjs')
const SAMPLER = resolve(import.meta.dirname, 'support/heap-sampler.mjs')
const ENDLESS_MB = 200
const work = mkdtempSync(join(tmpdir(), 'kit-hostile-driver-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

async function runKit(mode: string) {
  const dir = mkdtempSync(join(work, `${mode}-`))
  const reports = join(dir, 'reports')
  const peakFile = join(dir, 'peak.json')
  const args = ['--expose-gc', '--import', SAMPLER, BIN, 'client', '--driver', `node ${DRIVER} ${mode}`, '--scenario', 'clean-discovery', '--transport', 'stdio', '--report-dir', reports]
  const child = spawn(process.execPath, args, { env: { ...process.env, HEAP_PEAK_FILE: peakFile, ENDLESS_MB: String(ENDLESS_MB) }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)))
  child.stdout.resume()
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)))
  const peak = existsSync(peakFile) ? (JSON.parse(readFileSync(peakFile, 'utf8')) as { peak: number }).peak : Infinity
  return { code, stderr, reports, peak }
}

describe('a driver that writes one endless line', () => {
  it('is a harness error (exit 2, reports written), and the kit holds no more than the line limit allows', async () => {
    // The same run but for the attack: what the kit holds anyway (its verdict is not the point here).
    const control = await runKit('refuses')
    expect(control.peak, control.stderr).toBeLessThan(Infinity)
    const hostile = await runKit('endless-line')
    expect(hostile.stderr).not.toMatch(/RangeError|at .*\(/)
    expect(hostile.code, hostile.stderr).toBe(2)
    for (const file of ['results.json', 'junit.xml']) expect(existsSync(join(hostile.reports, file)), file).toBe(true)
    const results = JSON.parse(readFileSync(join(hostile.reports, 'results.json'), 'utf8')) as { suites: { checks: { id: string; status: string; message?: string }[] }[] }
    const driverCheck = results.suites.flatMap((suite) => suite.checks).find((check) => check.id === 'harness/driver')
    expect(driverCheck).toMatchObject({ status: 'error' })
    expect(driverCheck!.message).toContain(`a line longer than ${MAX_DRIVER_LINE_BYTES} bytes`)
    expect(hostile.peak - control.peak, `peak ${hostile.peak} against the control's ${control.peak}`).toBeLessThanOrEqual(3 * MAX_DRIVER_LINE_BYTES)
  })
})
