/**
 * list_changed storm: an in-process HTTP fixture sends 1,000 `notifications/tools/list_changed`
 * about 1 ms apart, each with a real change to the list (add, rename, remove). Against the plugin
 * (default listChanged: debounce 50 ms, max wait 1,000 ms): `tools/list` round-trips, counted on
 * the fixture's wire log, and the time from the last notification leaving the fixture until the
 * registry (seen through `tools/change`) equals the final list. Baseline, for contrast: a naive
 * SDK client that calls `listTools()` on every notification. One round-trip is measured too (the
 * raw SDK listing the final list), since the target allows "max wait + one round-trip".
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { startHttpFixture, wire, type HttpFixture, type WireEntry } from '@mcp-bridge/fixtures-server'
import { stormBehaviour, stormFinalNames, type StormSpec } from './behaviours.ts'
import { bridge, bridgeConfig, closeRaw, connectRaw, loadBridge, sleep, startHost, waitUntil, type Host } from './host.ts'
import { row, verdict, type Bench, type Row, type Target } from './model.ts'
import { formatMs, median, round } from './stats.ts'

const SPEC: StormSpec = { baseTools: 20, notifications: 1_000, intervalMs: 1, afterMs: 300 }
const DEBOUNCE_MS = 50
const MAX_WAIT_MS = 1_000
const TARGET_ROUND_TRIPS = 10
/** After convergence, keep watching this long: a later sync must not change the result. */
const SETTLE_MS = MAX_WAIT_MS + 200
const STORM_TIMEOUT_MS = 20_000
/**
 * How long the naive client may take to get its 1,000 answers back once the storm is over: a
 * contrast, not a target, and on a loaded machine it took 25 s of the run's 5-minute budget.
 */
const NAIVE_DRAIN_MS = 5_000
const RTT_SAMPLES = 10

interface StormRun {
  /** First to last notification, as the fixture sent them. */
  stormMs: number
  notifications: number
  /** tools/list requests the fixture received after the first notification. */
  listRequests: number
  /** From the last notification leaving the fixture to the observed list equalling the final one. */
  convergedAfterLastMs: number
  converged: boolean
  /** Times the observed list changed after the storm began (registry batches or naive views). */
  updates: number
}

export const storm: Bench = {
  id: 'storm',
  title: 'list_changed storm (round-trips and convergence)',
  targets: ['storm.roundTrips', 'storm.convergence'],
  async run(log) {
    const rows: Row[] = []
    const targets: Target[] = []
    const notes: string[] = []
    log(`storm: bridge, ${SPEC.notifications} notifications ${SPEC.intervalMs} ms apart`)
    const host = await startHost()
    let bridgeRun: StormRun
    let rttMs: number
    try {
      ;({ run: bridgeRun, rttMs } = await bridgeStorm(host))
      if (host.logs.length) notes.push(`plugin warnings: ${host.logs.slice(0, 3).join(' | ')}`)
    } finally {
      await host.dispose()
    }
    log('storm: naive SDK client (re-lists on every notification)')
    const naive = await naiveStorm()
    const limit = MAX_WAIT_MS + rttMs
    const tripsHold = bridgeRun.listRequests <= TARGET_ROUND_TRIPS
    const convergedHolds = bridgeRun.converged && bridgeRun.convergedAfterLastMs <= limit
    targets.push(
      { id: 'storm.roundTrips', description: `tools/list round-trips for ${SPEC.notifications} notifications`, measured: bridgeRun.listRequests, limit: TARGET_ROUND_TRIPS, unit: 'requests', holds: tripsHold },
      { id: 'storm.convergence', description: 'last notification -> registry equals the final list', measured: round(bridgeRun.convergedAfterLastMs, 1), limit: round(limit, 1), unit: 'ms', holds: convergedHolds },
    )
    rows.push(
      row(`tools/list round-trips (${bridgeRun.notifications} notifications in ${formatMs(bridgeRun.stormMs)})`, {
        bridge: String(bridgeRun.listRequests),
        baseline: `${naive.listRequests} (naive)`,
        target: `<= ${TARGET_ROUND_TRIPS}`,
        holds: verdict(tripsHold),
      }),
      row('last notification -> final list registered', {
        bridge: bridgeRun.converged ? formatMs(bridgeRun.convergedAfterLastMs) : 'never',
        baseline: naive.converged ? `${formatMs(naive.convergedAfterLastMs)} (naive)` : `not within ${formatMs(NAIVE_DRAIN_MS)} (naive)`,
        target: `<= ${formatMs(limit)} (max wait + 1 RTT of ${formatMs(rttMs)})`,
        holds: verdict(convergedHolds),
      }),
    )
    const figures = { spec: SPEC, debounceMs: DEBOUNCE_MS, maxWaitMs: MAX_WAIT_MS, roundTripMs: round(rttMs, 2), bridge: roundRun(bridgeRun), naive: roundRun(naive) }
    return { rows, targets, figures, notes }
  },
}

function roundRun(run: StormRun): Record<string, unknown> {
  return { ...run, stormMs: round(run.stormMs, 1), convergedAfterLastMs: round(run.convergedAfterLastMs, 1) }
}

const isNotification = wire.notification('notifications/tools/list_changed')
const isListRequest = wire.request('tools/list')

/** Timestamps of the storm as the fixture sent it, and the list requests it received meanwhile. */
function watchWire(fixture: HttpFixture): { first: Promise<number>; last: Promise<number>; listRequestsAfterFirst(): number } {
  let sent = 0
  const entries = fixture.wire!.entries
  const first = fixture.wire!.waitFor((e) => e.dir === 'send' && isNotification(e)).then(() => performance.now())
  const last = fixture.wire!.waitFor((e) => e.dir === 'send' && isNotification(e) && ++sent === SPEC.notifications).then(() => performance.now())
  return {
    first,
    last,
    listRequestsAfterFirst() {
      const start = entries.findIndex((e: WireEntry) => e.dir === 'send' && isNotification(e))
      return start < 0 ? 0 : entries.slice(start).filter((e) => e.dir === 'recv' && isListRequest(e)).length
    },
  }
}

/**
 * Tracks an observed list: `update(names)` after each change; the convergence time is the last
 * moment the view became equal to the final list.
 */
function convergenceTracker(expected: Set<string>) {
  let equal = false
  let at = Number.NaN
  let updates = 0
  return {
    update(names: Iterable<string>) {
      updates++
      const view = new Set(names)
      const now = view.size === expected.size && [...expected].every((name) => view.has(name))
      if (now && !equal) at = performance.now()
      equal = now
    },
    get equal() {
      return equal
    },
    get at() {
      return at
    },
    get updates() {
      return updates
    },
  }
}

async function bridgeStorm(host: Host): Promise<{ run: StormRun; rttMs: number }> {
  const fixture = await startHttpFixture(stormBehaviour(SPEC), { memoryWire: true })
  const serverName = 'storm'
  const expected = new Set(stormFinalNames(SPEC).map((raw) => bridge.publicToolName(serverName, raw)))
  const tracker = convergenceTracker(expected)
  const watch = watchWire(fixture)
  let stormStarted = false
  void watch.first.then(() => (stormStarted = true))
  const stopListening = host.ctx.on('tools/change', (names: string[]) => {
    if (stormStarted) tracker.update(names.filter((name) => host.tools.get(name)?.source?.serverName === serverName))
  })
  const fiber = loadBridge(host, bridgeConfig(serverName, { transport: 'http', url: fixture.url }, { listChanged: { debounceMs: DEBOUNCE_MS, maxWaitMs: MAX_WAIT_MS } }))
  try {
    await fiber
    const deadline = performance.now() + STORM_TIMEOUT_MS
    const [first, last] = await Promise.race([Promise.all([watch.first, watch.last]), sleep(STORM_TIMEOUT_MS).then(() => [Number.NaN, Number.NaN])])
    const remaining = Math.max(1_000, deadline - performance.now())
    await waitUntil(() => tracker.equal, { timeoutMs: remaining, what: 'the registry to equal the final list' }).catch(() => {})
    // A late sync must not move it away again.
    await sleep(SETTLE_MS)
    const run = summarise(fixture, watch, tracker, first, last)
    const rttMs = await roundTrip(fixture)
    return { run, rttMs }
  } finally {
    stopListening()
    await fiber.dispose()
    await fixture.close()
  }
}

/** Median time of one raw `tools/list` of the final list (the list is small: one page). */
async function roundTrip(fixture: HttpFixture): Promise<number> {
  const client = await connectRaw({ transport: 'http', url: fixture.url })
  try {
    const samples: number[] = []
    for (let i = 0; i < RTT_SAMPLES; i++) {
      const t0 = performance.now()
      await client.listTools()
      samples.push(performance.now() - t0)
    }
    return median(samples)
  } finally {
    await closeRaw(client)
  }
}

async function naiveStorm(): Promise<StormRun> {
  const fixture = await startHttpFixture(stormBehaviour(SPEC), { memoryWire: true })
  const expected = new Set(stormFinalNames(SPEC))
  const tracker = convergenceTracker(expected)
  const watch = watchWire(fixture)
  let client: Client | undefined
  let pending = 0
  try {
    client = await connectRaw({ transport: 'http', url: fixture.url }, 'bench-naive')
    const naive = client
    naive.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      pending++
      naive
        .listTools()
        .then((result) => tracker.update(result.tools.map((tool) => tool.name)))
        .catch(() => {})
        .finally(() => pending--)
    })
    const [first, last] = await Promise.race([Promise.all([watch.first, watch.last]), sleep(STORM_TIMEOUT_MS).then(() => [Number.NaN, Number.NaN])])
    // Every request it sent must come back (bounded): only then is its final view known.
    await waitUntil(() => pending === 0, { timeoutMs: NAIVE_DRAIN_MS, what: 'the naive client to finish re-listing' }).catch(() => {})
    return summarise(fixture, watch, tracker, first, last)
  } finally {
    if (client) await closeRaw(client)
    await fixture.close()
  }
}

/** What one storm run amounts to, read off the fixture's wire log and the convergence tracker. */
function summarise(
  fixture: HttpFixture,
  watch: ReturnType<typeof watchWire>,
  tracker: ReturnType<typeof convergenceTracker>,
  first: number,
  last: number,
): StormRun {
  return {
    stormMs: last - first,
    notifications: fixture.wire!.entries.filter((e) => e.dir === 'send' && isNotification(e)).length,
    listRequests: watch.listRequestsAfterFirst(),
    convergedAfterLastMs: tracker.at - last,
    converged: tracker.equal,
    updates: tracker.updates,
  }
}
