/**
 * Soak: many sequential calls, then many 50 at a time, through `ctx.tools.execute` against the
 * echo fixture, over stdio and over Streamable HTTP. Counts errors (the target is none), reports
 * p50/p99 of each phase, and the heap after full GCs before the first timed call and after the
 * last (a leak of 1.3 KB per call shows as 5 MB over stdio's 4,000 calls, of 2.6 KB per call over
 * HTTP's 2,000; the uptime benchmark watches the heap over a longer run).
 * Both fixtures run in child processes (stdio, and HTTP on 127.0.0.1), so the heap is the host's:
 * the registry, the plugin and the SDK client.
 */
import { fixtureCommand, spawnHttpFixture, type SpawnedHttpFixture } from '@mcp-bridge/fixtures-server'
import { ECHO } from './behaviours.ts'
import { bridge, bridgeConfig, collectGarbage, loadBridge, sleep, startHost, type Host, type ServerTarget } from './host.ts'
import { row, verdict, type Bench, type Row, type Target } from './model.ts'
import { formatBytes, formatMs, round, summarize } from './stats.ts'

type Transport = 'stdio' | 'http'

interface SoakPlan {
  warmup: number
  sequential: number
  concurrent: number
}

/**
 * Calls per transport, sized to finish within their budgets at load 20: there a stdio call took
 * 1.8-4.2 ms at p50 (5,000 sequential calls 27 s; 2,672 of 3,000 within 25 s) and an HTTP one 12-14
 * ms, so 5,000 HTTP calls took 50 s of a 5-minute run and still fell short.
 */
const PLANS: Record<Transport, SoakPlan> = {
  stdio: { warmup: 300, sequential: 2_000, concurrent: 2_000 },
  http: { warmup: 200, sequential: 1_000, concurrent: 1_000 },
}
const PARALLEL = 50
/**
 * Each phase's own budget, per transport: a slower machine reports fewer calls (and says so, the
 * errors target missed) rather than hanging, and a slow sequential phase never leaves the
 * concurrent one without time (it once made 0 of its 2,000 calls).
 */
const SEQUENTIAL_LIMIT_MS = 25_000
const CONCURRENT_LIMIT_MS = 15_000
const MAX_GROWTH_BYTES = 5 * 1024 * 1024

interface Phase {
  calls: number
  errors: number
  firstError?: string
  samples: number[]
  wallMs: number
}

interface SoakRun {
  sequential: Phase
  concurrent: Phase
  heapBefore: number
  heapAfter: number
  stoppedEarly: boolean
}

export const soak: Bench = {
  id: 'soak',
  title: 'Soak (thousands of sequential and concurrent calls per transport)',
  targets: ['soak.stdio.errors', 'soak.stdio.heap', 'soak.http.errors', 'soak.http.heap'],
  async run(log) {
    const rows: Row[] = []
    const targets: Target[] = []
    const notes: string[] = []
    const figures: Record<string, unknown> = { plans: PLANS, parallel: PARALLEL }
    for (const transport of ['stdio', 'http'] as Transport[]) {
      const plan = PLANS[transport]
      log(`soak: ${transport}: ${plan.warmup} warm-up, ${plan.sequential} sequential, ${plan.concurrent} concurrent (${PARALLEL} at a time)`)
      const run = await soakOne(transport, plan)
      const seq = summarize(run.sequential.samples)
      const con = summarize(run.concurrent.samples)
      const errors = run.sequential.errors + run.concurrent.errors
      const growth = run.heapAfter - run.heapBefore
      const calls = run.sequential.calls + run.concurrent.calls
      const complete = calls === plan.sequential + plan.concurrent
      figures[transport] = {
        sequential: { calls: run.sequential.calls, errors: run.sequential.errors, p50Ms: round(seq.p50, 4), p99Ms: round(seq.p99, 4), wallMs: round(run.sequential.wallMs, 0) },
        concurrent: { calls: run.concurrent.calls, errors: run.concurrent.errors, p50Ms: round(con.p50, 4), p99Ms: round(con.p99, 4), wallMs: round(run.concurrent.wallMs, 0) },
        firstError: run.sequential.firstError ?? run.concurrent.firstError,
        heapBeforeBytes: run.heapBefore,
        heapAfterBytes: run.heapAfter,
        heapGrowthBytes: growth,
        stoppedEarly: run.stoppedEarly,
      }
      targets.push({ id: `soak.${transport}.errors`, description: `${transport}: errors over ${calls} calls`, measured: errors, limit: 0, unit: 'errors', holds: complete && errors === 0 })
      targets.push({ id: `soak.${transport}.heap`, description: `${transport}: heap growth after GC`, measured: round(growth / 1024 / 1024, 2), limit: MAX_GROWTH_BYTES / 1024 / 1024, unit: 'MB', holds: growth <= MAX_GROWTH_BYTES })
      rows.push(
        row(`${transport} ${run.sequential.calls} sequential: errors`, { bridge: String(run.sequential.errors), target: '0', holds: verdict(complete && run.sequential.errors === 0) }),
        row(`${transport} sequential p50 / p99`, { bridge: `${formatMs(seq.p50)} / ${formatMs(seq.p99)}`, baseline: `${formatMs(run.sequential.wallMs)} wall` }),
        row(`${transport} ${run.concurrent.calls} concurrent (${PARALLEL} at a time): errors`, { bridge: String(run.concurrent.errors), target: '0', holds: verdict(complete && run.concurrent.errors === 0) }),
        row(`${transport} concurrent p50 / p99`, { bridge: `${formatMs(con.p50)} / ${formatMs(con.p99)}`, baseline: `${formatMs(run.concurrent.wallMs)} wall` }),
        row(`${transport} heap after GC, before -> after`, {
          bridge: `${formatBytes(run.heapBefore)} -> ${formatBytes(run.heapAfter)}`,
          ratio: `${growth >= 0 ? '+' : ''}${formatBytes(growth)}`,
          target: '<= +5 MB',
          holds: verdict(growth <= MAX_GROWTH_BYTES),
        }),
      )
      if (run.stoppedEarly) notes.push(`${transport}: ${run.sequential.calls} of ${plan.sequential} sequential calls within ${SEQUENTIAL_LIMIT_MS / 1000} s, ${run.concurrent.calls} of ${plan.concurrent} concurrent within ${CONCURRENT_LIMIT_MS / 1000} s`)
      const failure = run.sequential.firstError ?? run.concurrent.firstError
      if (failure) notes.push(`${transport}: first error: ${failure}`)
    }
    return { rows, targets, figures, notes }
  },
}

async function soakOne(transport: Transport, plan: SoakPlan): Promise<SoakRun> {
  let fixture: SpawnedHttpFixture | undefined
  let host: Host | undefined
  let fiber: ReturnType<typeof loadBridge> | undefined
  try {
    let target: ServerTarget
    if (transport === 'stdio') target = { transport: 'stdio', ...fixtureCommand(ECHO) }
    else {
      // In a process of its own, so the heap figures are the bridge's alone.
      fixture = await spawnHttpFixture(ECHO)
      target = { transport: 'http', url: fixture.url }
    }
    host = await startHost()
    fiber = loadBridge(host, bridgeConfig('soak', target, { failOnStartupError: true }))
    await fiber
    const { ctx } = host
    const name = bridge.publicToolName('soak', 'echo')
    let n = 0
    /** One call as a host makes it; resolves to an error message, or undefined. */
    const call = async (): Promise<string | undefined> => {
      const k = n++
      const result = await ctx.tools.execute(name, { text: `soak ${k}`, n: k })
      if (result.isError) return `${result.error.code}: ${result.error.message}`
      // The echo must be this call's own: answers crossed between concurrent calls are errors too.
      const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
      return text.includes(`"n":${k}}`) ? undefined : `call ${k} got another call's answer: ${text.slice(0, 100)}`
    }
    for (let i = 0; i < plan.warmup; i++) await call()
    await sleep(50)
    collectGarbage()
    const heapBefore = process.memoryUsage().heapUsed

    const sequential: Phase = { calls: 0, errors: 0, samples: [], wallMs: 0 }
    const seqStart = performance.now()
    for (let i = 0; i < plan.sequential && performance.now() - seqStart <= SEQUENTIAL_LIMIT_MS; i++) {
      const t0 = performance.now()
      const error = await call()
      sequential.samples.push(performance.now() - t0)
      sequential.calls++
      if (error !== undefined) {
        sequential.errors++
        sequential.firstError ??= error
      }
    }
    sequential.wallMs = performance.now() - seqStart

    const concurrent: Phase = { calls: 0, errors: 0, samples: [], wallMs: 0 }
    const conStart = performance.now()
    let next = 0
    const worker = async () => {
      while (next < plan.concurrent && performance.now() - conStart <= CONCURRENT_LIMIT_MS) {
        next++
        const t0 = performance.now()
        const error = await call()
        concurrent.samples.push(performance.now() - t0)
        concurrent.calls++
        if (error !== undefined) {
          concurrent.errors++
          concurrent.firstError ??= error
        }
      }
    }
    await Promise.all(Array.from({ length: PARALLEL }, worker))
    concurrent.wallMs = performance.now() - conStart

    await sleep(50)
    collectGarbage()
    const heapAfter = process.memoryUsage().heapUsed
    return { sequential, concurrent, heapBefore, heapAfter, stoppedEarly: sequential.calls + concurrent.calls < plan.sequential + plan.concurrent }
  } finally {
    await fiber?.dispose()
    await host?.dispose()
    await fixture?.close()
  }
}
