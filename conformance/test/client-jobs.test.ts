/**
 * --jobs: scenario runs side by side give the verdicts and the reports of a serial run (timings,
 * pids, ports and temporary paths aside, which differ between any two runs), in the serial order.
 * The pool under it keeps its bound, its order and the runs that must be alone (pure, no clock).
 */
import { describe, expect, it } from 'vitest'
import { parseCommand } from '../src/cli/parse.ts'
import { helpText } from '../src/cli/help.ts'
import { loadScenarios } from '../src/client/load.ts'
import { defaultJobs, expandRuns, runClientScenarios, runsAlone, selectScenarios } from '../src/client/index.ts'
import { runPool } from '../src/client/pool.ts'
import { estimatedRunMs, PROCESS_START_WEIGHT_MS, startOrder } from '../src/client/schedule.ts'
import { parseScenario } from '../src/client/load.ts'
import type { SuiteResult } from '../src/model.ts'
import { assembleReport } from '../src/report/assemble.ts'
import { formatReports } from '../src/report/write.ts'
import { TOOL } from '../src/cli/tool.ts'

/** A task the test ends by hand: the pool's schedule, observed without any timer. */
function gate() {
  const started: number[] = []
  const open = new Map<number, (value: string) => void>()
  let live = 0
  let most = 0
  const task = (item: number) => {
    started.push(item)
    most = Math.max(most, ++live)
    return new Promise<string>((resolve) =>
      open.set(item, (value) => {
        live--
        resolve(value)
      }),
    )
  }
  const end = async (item: number) => {
    open.get(item)!(`r${item}`)
    open.delete(item)
    // Let the pool see the end and start what it may.
    for (let i = 0; i < 5; i++) await Promise.resolve()
  }
  return { task, end, started, running: () => [...open.keys()], most: () => most }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

describe('runPool', () => {
  it('runs at most `jobs` at once, starts in order and returns results in the items’ order, not the order they ended in', async () => {
    const g = gate()
    const done = runPool([0, 1, 2, 3, 4], 2, () => false, g.task)
    await settle()
    expect(g.running()).toEqual([0, 1])
    await g.end(1)
    expect(g.running()).toEqual([0, 2])
    await g.end(2)
    await g.end(3)
    await g.end(4)
    await g.end(0)
    expect(await done).toEqual(['r0', 'r1', 'r2', 'r3', 'r4'])
    expect(g.started).toEqual([0, 1, 2, 3, 4])
    expect(g.most()).toBe(2)
  })

  it('with jobs 1 runs one after another in order', async () => {
    const g = gate()
    const done = runPool([0, 1, 2], 1, () => false, g.task)
    for (const item of [0, 1, 2]) {
      await settle()
      expect(g.running()).toEqual([item])
      await g.end(item)
    }
    expect(await done).toEqual(['r0', 'r1', 'r2'])
  })

  it('runs an item that must be alone once every earlier one has ended, and starts nothing beside it', async () => {
    const g = gate()
    const done = runPool([0, 1, 2, 3], 3, (item) => item === 1, g.task)
    await settle()
    // 1 must be alone: it waits for 0, and 2 (after it in order) waits too.
    expect(g.running()).toEqual([0])
    await g.end(0)
    expect(g.running()).toEqual([1])
    await g.end(1)
    expect(g.running()).toEqual([2, 3])
    await g.end(3)
    await g.end(2)
    expect(await done).toEqual(['r0', 'r1', 'r2', 'r3'])
  })

  it('after a task fails starts nothing more and rejects only once the running ones have ended', async () => {
    const g = gate()
    let rejected: unknown
    const done = runPool([0, 1, 2, 3], 2, () => false, (item) => (item === 1 ? Promise.reject(new Error('boom')) : g.task(item))).catch((error: unknown) => (rejected = error))
    await settle()
    expect(g.running()).toEqual([0])
    expect(rejected).toBeUndefined()
    await g.end(0)
    await done
    expect((rejected as Error).message).toBe('boom')
    expect(g.started).toEqual([0])
  })

  it('refuses a jobs count that is no whole number of at least 1', async () => {
    await expect(runPool([1], 0, () => false, async () => 1)).rejects.toThrow(/jobs must be a whole number of at least 1/)
  })
})

describe('the start order side by side', () => {
  it('starts the runs that must be alone first, in their order, then the rest longest first, ties in their order', () => {
    const runs = [
      { id: 'a', ms: 100 },
      { id: 'solo1', ms: 9000, alone: true },
      { id: 'b', ms: 3000 },
      { id: 'c', ms: 100 },
      { id: 'solo2', ms: 0, alone: true },
      { id: 'd', ms: 5000 },
    ]
    const order = startOrder(runs, (run) => run.alone === true, (run) => run.ms)
    expect(order.map((i) => runs[i]!.id)).toEqual(['solo1', 'solo2', 'd', 'b', 'a', 'c'])
  })

  /** A scenario from its YAML text, as the loader checks it. */
  const scenario = (yaml: string) => parseScenario(`id: x\ntitle: t\nspec: [{ ref: r }]\n${yaml}`, 'x.yaml')

  it('weighs a run by what its scenario scripts, and by the server processes a stdio run starts', () => {
    const plain = scenario('server: { tools: [{ name: a }] }\nsteps: [{ call: { tool: a } }]')
    expect(estimatedRunMs(plain, 'http')).toBe(0)
    expect(estimatedRunMs(plain, 'stdio')).toBe(PROCESS_START_WEIGHT_MS)
    // Waits, the settle window (a duration over the client's settings), a slow tool, a storm.
    const scripted = scenario(
      [
        'server: { tools: [{ name: slow, delayMs: 700 }, { name: storm }], listChanged: { onTool: storm, count: 10, intervalMs: 20 } }',
        'client: { serverName: s, listChanged: { debounceMs: 100 } }',
        'steps: [{ call: { tool: slow } }, { wait: { ms: 250 } }, { kill: true }]',
        "settle: 'listChanged.debounceMs * 3'",
      ].join('\n'),
    )
    expect(estimatedRunMs(scripted, 'http')).toBe(700 + 250 + 300 + 10 * 20 + PROCESS_START_WEIGHT_MS)
    expect(estimatedRunMs(scripted, 'stdio')).toBe(700 + 250 + 300 + 10 * 20 + 2 * PROCESS_START_WEIGHT_MS)
    // A call ends at the client's ceiling: a hanging tool at toolCallTimeoutMs, progress at the total, an abort at abortAfterMs.
    const ceilings = scenario(
      [
        'server: { tools: [{ name: hang, hang: true }, { name: long, progress: { intervalMs: 100, durationMs: 30000 } }] }',
        'client: { serverName: s, toolCallTimeoutMs: 400, maxTotalTimeoutMs: 2500 }',
        'steps: [{ call: { tool: hang } }, { call: { tool: long } }, { call: { tool: hang, abortAfterMs: 50 } }]',
      ].join('\n'),
    )
    expect(estimatedRunMs(ceilings, 'http')).toBe(400 + 2500 + 50)
  })

  it('puts the real storm of list_changed before a plain discovery', () => {
    const all = loadScenarios()
    const weight = (id: string, transport: 'stdio' | 'http') => estimatedRunMs(all.find((s) => s.scenario.id === id)!.scenario, transport)
    expect(weight('list-changed-max-wait-caps-a-storm', 'stdio')).toBeGreaterThan(weight('clean-discovery', 'stdio'))
    expect(weight('clean-discovery', 'stdio')).toBeGreaterThan(weight('clean-discovery', 'http'))
  })
})

describe('--jobs on the command line', () => {
  const parse = (...argv: string[]) => parseCommand(argv, '/work')

  it('is a client and default-run option, a whole number from 1 to 32, absent unless given', () => {
    const client = parse('client', '--jobs', '3', '--shard', '1/2')
    expect(client.ok && client.command).toMatchObject({ kind: 'client', options: { jobs: 3, shard: { index: 1, count: 2 } } })
    const plain = parse('client')
    expect(plain.ok && plain.command.kind === 'client' && 'jobs' in plain.command.options).toBe(false)
    expect(parse('--jobs', '1')).toMatchObject({ ok: true, command: { kind: 'default', jobs: 1 } })
    for (const bad of ['0', '33', '1.5', 'two']) expect(parse('client', '--jobs', bad)).toEqual({ ok: false, error: `--jobs must be a whole number from 1 to 32, not ${JSON.stringify(bad)}` })
    expect(parse('server', '--jobs', '2', '--url', 'http://127.0.0.1:1/mcp')).toEqual({ ok: false, error: '--jobs is not an option of "server"' })
  })

  it('is on the client help page with its default, which is two per core, at most 4', () => {
    expect(helpText('client')).toMatch(/--jobs N +scenario runs at once, 1 to 32 \(default: two per core, at most\s+4\)/)
    expect([1, 2, 3, 4, 8, 64].map((cores) => defaultJobs(cores))).toEqual([2, 4, 4, 4, 4, 4])
  })
})

/**
 * A handful of scenarios, a slow one first so that runs end out of order, and two that plant
 * hostEnv with the same variable name (each must run alone, or one reads the other's secret).
 */
const IDS = ['call-timeout-sends-cancelled', 'clean-discovery', 'crash-once-recovers', 'is-error-result', 'oauth-client-credentials', 'oauth-client-secret-post', 'pagination']

/** What differs between any two runs of the same scenarios, serial or not: masked, so that the rest must be identical. */
function masked(text: string): string {
  return text
    .replace(/((?:"|&quot;)[A-Za-z]*(?:Ms|At|ms|at)(?:"|&quot;)\s*:\s*)-?[\d.]+/g, '$10')
    .replace(/\b\d+(\.\d+)?( ?)(ms|s)\b/g, 'N$2$3')
    .replace(/\bpids? \d+/g, 'pid N')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/(kit-[a-z]+-)[A-Za-z0-9]+/g, '$1X')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
}

/**
 * The reports of a run with its timings taken out: durations are zero, and a transcript's timeline
 * (its events in time order, each at a time) becomes the set of its events.
 */
function reportOf(suites: SuiteResult[]): Record<string, string> {
  const untimed = suites.map((suite) => ({
    ...suite,
    durationMs: 0,
    ...(suite.transcript
      ? { transcript: { ...suite.transcript, events: suite.transcript.events.map((event) => ({ ...event, at: 0 })).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))) } }
      : {}),
  }))
  return formatReports(assembleReport({ suites: untimed, baseline: [], tool: TOOL, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 0, mergedStale: [] }))
}

describe('client scenarios side by side', () => {
  it('the picked scenarios exist, and two of them must run alone', () => {
    const all = loadScenarios()
    expect(IDS.filter((id) => !all.some((s) => s.scenario.id === id))).toEqual([])
    expect(all.filter((s) => IDS.includes(s.scenario.id) && runsAlone(s)).map((s) => s.scenario.id)).toEqual(['oauth-client-credentials', 'oauth-client-secret-post'])
  })

  it('give the verdicts and reports of a serial run, in its order', async () => {
    const run = (jobs: number) => runClientScenarios({ transports: ['stdio', 'http'], scenarioIds: IDS, updateSnapshots: false, jobs })
    const serial = await run(1)
    const ended: string[] = []
    const starts: string[] = []
    const parallel = await runClientScenarios({
      transports: ['stdio', 'http'],
      scenarioIds: IDS,
      updateSnapshots: false,
      jobs: 4,
      onRun: ({ id, transport, suite }) => void (suite ? ended : starts).push(`${id} [${transport}]`),
    })
    const verdicts = (suites: SuiteResult[]) => suites.map((suite) => `${suite.id} [${suite.transport}] ${suite.checks.map((c) => `${c.id}=${c.status}`).join(' ')}`)
    expect(verdicts(parallel)).toEqual(verdicts(serial))
    expect(serial.flatMap((s) => s.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${s.id} [${s.transport}] ${c.id}: ${c.message}`))).toEqual([])
    // Side by side for real: the runs ended in another order than the one reported.
    expect(ended).not.toEqual(parallel.map((s) => `${s.id} [${s.transport}]`))
    // They started in the schedule's order (the ones that must be alone first, then longest first), not the serial one.
    const runs = expandRuns(selectScenarios(loadScenarios(), IDS), ['stdio', 'http'])
    const scheduled = startOrder(runs, ({ loaded }) => runsAlone(loaded), ({ loaded, transport }) => estimatedRunMs(loaded.scenario, transport)).map((i) => `${runs[i]!.loaded.scenario.id} [${runs[i]!.transport}]`)
    expect(starts).toEqual(scheduled)
    expect(starts).not.toEqual(serial.map((s) => `${s.id} [${s.transport}]`))
    const [a, b] = [reportOf(serial), reportOf(parallel)]
    for (const file of Object.keys(a)) expect(masked(b[file]!), file).toBe(masked(a[file]!))
  })
})

describe('scenarios handed to the run', () => {
  it('are the ones it runs: the directory is not read again', async () => {
    const scenarios = loadScenarios().filter((s) => s.scenario.id === 'is-error-result')
    const suites = await runClientScenarios({ transports: ['http'], scenarioIds: [], updateSnapshots: false, dir: '/nonexistent/scenarios', scenarios })
    expect(suites.map((suite) => `${suite.id} [${suite.transport}]`)).toEqual(['is-error-result [http]'])
  })
})
