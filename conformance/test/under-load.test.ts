/**
 * The default run gives the same verdicts on a busy machine. The whole default run
 * (`mcp-conformance` with no arguments, through the bin as a user runs it: every client scenario
 * over both transports, then the server checks against server-everything) runs twice; each round
 * must exit 0 with no failure or error beyond the default baseline's expected ones:
 * - the calm round: no busy loops of ours;
 * - the loaded round: every core kept busy by busy loops this test starts and stops (2 per core).
 * Both run the scenarios side by side as a user gets them (--jobs by default: two per core), so in
 * the loaded round runs press on each other as well as on the busy loops. Both rounds must give the
 * same verdicts, suite by suite and check by check, in the same order: load does not change a
 * verdict. (The calm round ran one scenario at a time until the suite had to be halved: 108 s of a
 * 13-minute suite, alone. That a serial run gives the verdicts and reports of a parallel one is
 * proven on a slice per test run (client-jobs.test.ts) and on a quarter of the scenarios, suite by
 * suite, by `npm run bench` (bench/kit.ts), whose target it is.)
 * (A third round, which repeated the loaded one, proved nothing the second did not; two loaded
 * rounds also compared load with load only.)
 * A scenario whose snapshot counts what the scheduler decides (progress ticks before a ceiling),
 * or whose steps must fit a window of a few hundred milliseconds, fails here first.
 *
 * Its own vitest project runs it after every other (vitest.workspace.ts, groupOrder), so its load
 * slows no other test. It needs the build (`npm test` builds first): the bin runs dist.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunReport } from '../src/model.ts'
import { WHOLE_DEFAULT_RUN_MS } from '../../test/support/default-run.ts'
import { startBurners, type Burners } from './support/cpu-burners.ts'

const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')
interface Round {
  name: string
  /** Whether the busy loops run during the round. */
  loaded: boolean
}
const ROUNDS: Round[] = [
  { name: 'calm', loaded: false },
  { name: 'loaded', loaded: true },
]

/** The default run as a user runs it: no arguments but where the reports go. */
function runDefault(reportDir: string): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, '--report-dir', reportDir], { timeout: WHOLE_DEFAULT_RUN_MS, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr })
    })
  })
}

describe('the default run under CPU load', () => {
  let dir: string
  let burners: Burners | undefined
  /** The first round's verdicts, which the other round must repeat. */
  let first: string[] | undefined
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-load-'))
  })
  afterAll(async () => {
    await burners?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it.each(ROUNDS.map((round) => [round.name, round.loaded ? 'while 2 busy loops per core run' : 'with no busy loops'] as const))(
    'the %s round: the default run passes %s, with the same verdicts',
    async (name) => {
      const { loaded } = ROUNDS.find((round) => round.name === name)!
      if (loaded) burners = startBurners(2)
      const started = performance.now()
      const reportDir = join(dir, `round-${name}`)
      const { code, stderr } = await runDefault(reportDir)
      const report = JSON.parse(await readFile(join(reportDir, 'results.json'), 'utf8')) as RunReport
      const failures = report.suites.flatMap((suite) =>
        suite.checks.filter((check) => (check.status === 'fail' || check.status === 'error') && !check.expected).map((check) => `${suite.id} [${suite.transport}] ${check.id}: ${check.message.split('\n').slice(0, 3).join(' | ')}`),
      )
      // The figures a reader needs to trust the round: how long, how loaded, how much was run.
      console.log(`${name} round: ${report.suites.length} runs in ${Math.round((performance.now() - started) / 1000)} s, 1-min load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`)
      if (loaded) {
        expect(burners!.allRunning(), 'a load that stopped halfway proves nothing').toBe(true)
        await burners!.stop()
        burners = undefined
      }
      expect(report.suites.filter((suite) => suite.kind === 'client').length).toBeGreaterThan(100)
      expect(report.suites.some((suite) => suite.kind === 'server')).toBe(true)
      expect(failures).toEqual([])
      expect(code, stderr.slice(-2000)).toBe(0)
      const verdicts = report.suites.map((suite) => `${suite.id} [${suite.transport ?? '-'}] ${suite.checks.map((check) => `${check.id}=${check.status}`).join(' ')}`)
      first ??= verdicts
      expect(verdicts).toEqual(first)
    },
    WHOLE_DEFAULT_RUN_MS + 60_000,
  )
})
