import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadScenarios } from '../src/client/load.ts'
import { scenarioBound } from '../src/client/run-bound.ts'
import { boundDefaults } from '../src/client/run-scenario.ts'

const SCRIPT = fileURLToPath(new URL('./support/hang-gc-runs.mjs', import.meta.url))
/** 50 runs, as issue 34 asks: 5 at a time, so the whole takes about 25 s on two cores. */
const LANES = 5
const PER_LANE = 10
const GC_EVERY_MS = 5

interface RunLine {
  lane: number
  run: number
  durationMs: number
  checks: Array<{ id: string; status: string; message: string }>
}

/** The runs' lines, once the child has exited (it stops at the first run that did not end cleanly). */
function runUnderGc(): Promise<{ code: number | null; runs: RunLine[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', SCRIPT, String(LANES), String(PER_LANE), String(GC_EVERY_MS)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stderr, runs: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as RunLine) }))
  })
}

describe('a server that hangs in initialize, with garbage collected all along (issue 34, item 1)', () => {
  const { scenario } = loadScenarios().find((s) => s.scenario.id === 'hang-on-initialize')!
  const bound = scenarioBound(scenario, boundDefaults())

  // With the connect deadline built from AbortSignal.any([AbortSignal.timeout(…), …]) the timeout
  // signal is collected before it fires: the start never ends, and the run is cut at its outer
  // bound (or, without that bound, never ends at all).
  it('every one of 50 runs gives up at connectTimeoutMs and ends within its bound, stopped, with no server left', { timeout: 2 * bound.ms + 60_000 }, async () => {
    const { code, runs, stderr } = await runUnderGc()
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const errors = runs.flatMap((run) => run.checks.filter((check) => check.status === 'error').map((check) => `${run.lane}/${run.run}: ${check.message}`))
    expect(errors).toEqual([])
    expect(runs).toHaveLength(LANES * PER_LANE)
    for (const run of runs) {
      expect(run.durationMs).toBeLessThanOrEqual(bound.ms)
      const status = (id: string) => run.checks.find((check) => check.id === id)?.status
      // Gave up (no tools, stopped) and left no server running: the attempt ended, it did not hang.
      expect([status('expect/state'), status('expect/tools'), status('expect/running')]).toEqual(['pass', 'pass', 'pass'])
    }
  })
})
