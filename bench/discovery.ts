/**
 * Discovery at scale: one fixture lists 1,000 or 10,000 tools in pages of 500. Bridge: from
 * `ctx.plugin(bridge, config)` until the awaited fiber resolves (every tool registered). Raw: a
 * new SDK client's connect, then `listTools` over every page: the v2 client the plugin is built on
 * (as in overhead.ts); over HTTP the 1.x client's listing is timed too, for information. Both
 * include connect (initialize); over in-process HTTP the list phase alone is also reported, from
 * the fixture receiving the first `tools/list` to the end. Memory: heapUsed after a full GC, before
 * and after, per tool, for the plugin (everything it keeps per registered tool) and for the raw
 * loop (the listed objects kept).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureCommand, startHttpFixture, wire, type HttpFixture } from '@mcp-bridge/fixtures-server'
import { discoveryBehaviour } from './behaviours.ts'
import { bridgeConfig, closeRaw, collectGarbage, connectRaw, connectRawV2, listAllRaw, loadBridge, namesOf, sleep, startHost, type Host, type ServerTarget } from './host.ts'
import { row, verdict, type Bench, type Row, type Target } from './model.ts'
import { formatBytes, formatMs, formatRatio, median, ratio, round } from './stats.ts'

const PAGE_SIZE = 500
const HTTP_SIZES = [1_000, 10_000]
const HTTP_TRIALS = 5
const STDIO_SIZE = 1_000
const STDIO_TRIALS = 2
/** 1,000 tools (HTTP, stdio): the first run's target. */
const TARGET_RATIO = 1.5
/** 10,000 tools (issue 20): start to all registered, against connect + the raw listTools loop. */
const TARGET_RATIO_10K = 1.2
/** 10,000 tools: heap the bridge keeps per registered tool, against the raw listing's objects. */
const TARGET_HEAP_RATIO = 2
/** The plugin's default limits.maxTools: exactly this many must register. */
const MAX_TOOLS_DEFAULT = 10_000

interface Trial {
  totalMs: number
  /** From the fixture receiving the first tools/list to all listed (raw) or registered (bridge). */
  listMs?: number
  /**
   * HTTP: this process's CPU time (user + system) over the trial, the in-process fixture's share
   * included on both sides: on a loaded machine the wall time follows the neighbours, this less.
   */
  cpuMs?: number
  tools: number
}

export const discovery: Bench = {
  id: 'discovery',
  title: 'Discovery at scale (start to all registered vs raw listTools loop)',
  targets: ['discovery.http.1000', 'discovery.http.10000', 'discovery.http.10000.heap', 'discovery.maxTools', 'discovery.stdio.1000'],
  async run(log) {
    const rows: Row[] = []
    const targets: Target[] = []
    const figures: Record<string, unknown> = { pageSize: PAGE_SIZE, includesConnect: true }
    const notes: string[] = []
    const host = await startHost()
    try {
      for (const size of HTTP_SIZES) {
        log(`discovery: http, ${size} tools, ${HTTP_TRIALS} trials per side`)
        const bridgeTrials: Trial[] = []
        const rawTrials: Trial[] = []
        const raw1Trials: Trial[] = []
        const sides = ['bridge', 'raw', 'raw1'] as const
        for (let t = 0; t < HTTP_TRIALS; t++) {
          // Rotate who goes first.
          for (const side of [...sides.slice(t % sides.length), ...sides.slice(0, t % sides.length)]) {
            if (side === 'bridge') bridgeTrials.push(await httpTrial(host, size, 'bridge', `d${size}t${t}`))
            else (side === 'raw' ? rawTrials : raw1Trials).push(await httpTrial(host, size, side))
          }
        }
        // Heap only where it is a target: the 1,000-tool figure cost 8 listings and judged nothing.
        const memory = size === MAX_TOOLS_DEFAULT ? await measureMemory(host, size, log) : undefined
        const b = median(bridgeTrials.map((x) => x.totalMs))
        const r = median(rawTrials.map((x) => x.totalMs))
        const r1 = median(raw1Trials.map((x) => x.totalMs))
        const bl = median(bridgeTrials.map((x) => x.listMs ?? Number.NaN))
        const rl = median(rawTrials.map((x) => x.listMs ?? Number.NaN))
        const bc = median(bridgeTrials.map((x) => x.cpuMs ?? Number.NaN))
        const rc = median(rawTrials.map((x) => x.cpuMs ?? Number.NaN))
        const total = ratio(b, r)
        const registered = Math.min(...bridgeTrials.map((x) => x.tools))
        const limit = size === MAX_TOOLS_DEFAULT ? TARGET_RATIO_10K : TARGET_RATIO
        const holds = Number.isFinite(total) ? total <= limit && registered === size : null
        const heapRatio = memory ? ratio(memory.bridgeBytesPerTool, memory.rawBytesPerTool) : Number.NaN
        figures[`http${size}`] = {
          bridgeMs: bridgeTrials.map((x) => round(x.totalMs, 1)),
          rawMs: rawTrials.map((x) => round(x.totalMs, 1)),
          raw1Ms: raw1Trials.map((x) => round(x.totalMs, 1)),
          bridgeListPhaseMs: bridgeTrials.map((x) => round(x.listMs ?? Number.NaN, 1)),
          rawListPhaseMs: rawTrials.map((x) => round(x.listMs ?? Number.NaN, 1)),
          bridgeCpuMs: bridgeTrials.map((x) => round(x.cpuMs ?? Number.NaN, 1)),
          rawCpuMs: rawTrials.map((x) => round(x.cpuMs ?? Number.NaN, 1)),
          medianRatio: round(total),
          listPhaseRatio: round(ratio(bl, rl)),
          registered,
          ...(memory && { memory }),
        }
        targets.push({ id: `discovery.http.${size}`, description: `http ${size} tools: bridge / raw (median, connect included)`, measured: round(total), limit, unit: 'x', holds })
        const heapTarget = size === MAX_TOOLS_DEFAULT
        const heapHolds = heapTarget ? (Number.isFinite(heapRatio) ? heapRatio <= TARGET_HEAP_RATIO : null) : undefined
        if (heapHolds !== undefined) {
          targets.push({ id: `discovery.http.${size}.heap`, description: `http ${size} tools: heap per registered tool, bridge / raw listing`, measured: round(heapRatio), limit: TARGET_HEAP_RATIO, unit: 'x', holds: heapHolds })
        }
        rows.push(
          row(`http ${size} tools, start -> registered (median of ${HTTP_TRIALS})`, { bridge: formatMs(b), baseline: formatMs(r), ratio: formatRatio(total), target: `<= ${limit}x`, holds: verdict(holds) }),
          row(`http ${size} tools, start -> registered vs the SDK's 1.x client`, { bridge: formatMs(b), baseline: `${formatMs(r1)} (raw 1.x)`, ratio: formatRatio(ratio(b, r1)) }),
          row(`http ${size} tools, list phase only`, { bridge: formatMs(bl), baseline: formatMs(rl), ratio: formatRatio(ratio(bl, rl)) }),
          row(`http ${size} tools, process CPU, fixture included (median)`, { bridge: formatMs(bc), baseline: formatMs(rc), ratio: formatRatio(ratio(bc, rc)) }),
        )
        if (memory) {
          rows.push(
            row(`http ${size} tools, heap per tool (warm, ${MEMORY_TRIALS === 1 ? 'one trial' : `median of ${MEMORY_TRIALS}`})`, {
              bridge: formatBytes(memory.bridgeBytesPerTool),
              baseline: formatBytes(memory.rawBytesPerTool),
              ratio: formatRatio(heapRatio),
              target: heapHolds === undefined ? '' : `<= ${TARGET_HEAP_RATIO}x`,
              holds: heapHolds === undefined ? '' : verdict(heapHolds),
            }),
          )
        }
        if (size === MAX_TOOLS_DEFAULT) {
          const exact = registered === MAX_TOOLS_DEFAULT
          targets.push({ id: 'discovery.maxTools', description: `exactly limits.maxTools (${MAX_TOOLS_DEFAULT}) tools all register`, measured: registered, limit: MAX_TOOLS_DEFAULT, unit: 'tools', holds: exact })
          rows.push(row(`exactly ${MAX_TOOLS_DEFAULT} (= default maxTools) register`, { bridge: String(registered), target: String(MAX_TOOLS_DEFAULT), holds: verdict(exact) }))
        }
      }
      log(`discovery: stdio, ${STDIO_SIZE} tools, ${STDIO_TRIALS} trials per side`)
      const stdio = await stdioTrials(host)
      const b = median(stdio.bridge.map((x) => x.totalMs))
      const r = median(stdio.raw.map((x) => x.totalMs))
      const total = ratio(b, r)
      const registered = Math.min(...stdio.bridge.map((x) => x.tools))
      const holds = Number.isFinite(total) ? total <= TARGET_RATIO && registered === STDIO_SIZE : null
      figures[`stdio${STDIO_SIZE}`] = { bridgeMs: stdio.bridge.map((x) => round(x.totalMs, 1)), rawMs: stdio.raw.map((x) => round(x.totalMs, 1)), medianRatio: round(total), registered }
      targets.push({ id: `discovery.stdio.${STDIO_SIZE}`, description: `stdio ${STDIO_SIZE} tools: bridge / raw (median, spawn included)`, measured: round(total), limit: TARGET_RATIO, unit: 'x', holds })
      rows.push(row(`stdio ${STDIO_SIZE} tools, spawn -> registered (median of ${STDIO_TRIALS})`, { bridge: formatMs(b), baseline: formatMs(r), ratio: formatRatio(total), target: `<= ${TARGET_RATIO}x`, holds: verdict(holds) }))
      if (host.logs.length) notes.push(`plugin warnings: ${host.logs.slice(0, 3).join(' | ')}`)
    } finally {
      await host.dispose()
    }
    return { rows, targets, figures, notes }
  },
}

async function httpTrial(host: Host, size: number, side: 'bridge' | 'raw' | 'raw1', serverName = 'raw'): Promise<Trial> {
  const fixture = await startHttpFixture(discoveryBehaviour(size, PAGE_SIZE), { memoryWire: true })
  // Each trial starts from a collected heap: a 10,000-tool trial leaves tens of MB of garbage, and
  // without this the next trial, of either side, paid for collecting it (trials of one side then
  // fell into two groups 50-100 ms apart).
  collectGarbage()
  try {
    const target: ServerTarget = { transport: 'http', url: fixture.url }
    let firstList = Number.NaN
    void fixture.wire!.waitFor(wire.request('tools/list')).then(() => (firstList = performance.now()))
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const cpuMs = () => {
      const used = process.cpuUsage(cpu0)
      return (used.user + used.system) / 1000
    }
    if (side === 'bridge') {
      const fiber = loadBridge(host, bridgeConfig(serverName, target, { failOnStartupError: true }))
      try {
        await fiber
        const end = performance.now()
        return { totalMs: end - t0, listMs: end - firstList, cpuMs: cpuMs(), tools: namesOf(host, serverName).length }
      } finally {
        await fiber.dispose()
      }
    }
    const client = side === 'raw' ? await connectRawV2(target) : await connectRaw(target)
    try {
      const tools = await listAllRaw(client)
      const end = performance.now()
      return { totalMs: end - t0, listMs: end - firstList, cpuMs: cpuMs(), tools: tools.length }
    } finally {
      await closeRaw(client)
    }
  } finally {
    await fixture.close()
  }
}

interface Memory {
  gc: boolean
  bridgeBytesPerTool: number
  rawBytesPerTool: number
  /** Every trial's figure, bytes per tool. */
  bridgeTrials: number[]
  rawTrials: number[]
}

/**
 * After the warm round, one trial per side: three trials per side differed by at most 1.3 % (bridge
 * 764-774 B per tool, raw 417-420 B), against a margin of 8 % to the target (1.84x of 2x).
 */
const MEMORY_TRIALS = 1

/**
 * heapUsed deltas after full GCs, per tool. The fixture exists before the first reading, so it
 * cancels out, and one unmeasured round of each side comes first: the in-process fixture builds
 * its pages on the first listing, and each side has one-time costs (compiled code, Ajv's
 * meta-schemas), none of which is a cost per tool. Each side is measured in a call of its own, so
 * nothing of one side is still referenced while the other is measured.
 */
async function measureMemory(host: Host, size: number, log: (line: string) => void): Promise<Memory> {
  let fixture: HttpFixture | undefined
  try {
    fixture = await startHttpFixture(discoveryBehaviour(size, PAGE_SIZE))
    const target: ServerTarget = { transport: 'http', url: fixture.url }
    const gc = collectGarbage()
    if (!gc) log('discovery: no global.gc (run node with --expose-gc); heap figures include garbage')
    await bridgeHeap(host, target, size, 'mem-warm')
    await rawHeap(target, size)
    const bridgeTrials: number[] = []
    const rawTrials: number[] = []
    for (let t = 0; t < MEMORY_TRIALS; t++) {
      bridgeTrials.push(await bridgeHeap(host, target, size, `mem${t}`))
      rawTrials.push(await rawHeap(target, size))
    }
    return { gc, bridgeBytesPerTool: median(bridgeTrials), rawBytesPerTool: median(rawTrials), bridgeTrials: bridgeTrials.map((x) => Math.round(x)), rawTrials: rawTrials.map((x) => Math.round(x)) }
  } finally {
    await fixture?.close()
  }
}

async function settledHeap(): Promise<number> {
  await sleep(50)
  collectGarbage()
  return process.memoryUsage().heapUsed
}

/** Everything the plugin keeps per registered tool, with the instance running. */
async function bridgeHeap(host: Host, target: ServerTarget, size: number, serverName: string): Promise<number> {
  const before = await settledHeap()
  const fiber = loadBridge(host, bridgeConfig(serverName, target, { failOnStartupError: true }))
  try {
    await fiber
    return ((await settledHeap()) - before) / size
  } finally {
    await fiber.dispose()
  }
}

/** The raw SDK's listed tool objects, kept alive, with the client connected. */
async function rawHeap(target: ServerTarget, size: number): Promise<number> {
  const before = await settledHeap()
  const client = await connectRawV2(target)
  try {
    const tools = await listAllRaw(client)
    const bytes = (await settledHeap()) - before
    if (tools.length !== size) throw new Error(`raw listing returned ${tools.length} tools, expected ${size}`)
    return bytes / size
  } finally {
    await closeRaw(client)
  }
}

/** stdio: spawn included on both sides (the behaviour goes through a temp file: too big for argv). */
async function stdioTrials(host: Host): Promise<{ bridge: Trial[]; raw: Trial[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-discovery-'))
  try {
    const file = join(dir, 'behaviour.json')
    writeFileSync(file, JSON.stringify(discoveryBehaviour(STDIO_SIZE, PAGE_SIZE)))
    const target: ServerTarget = { transport: 'stdio', ...fixtureCommand(file) }
    const bridgeTrials: Trial[] = []
    const rawTrials: Trial[] = []
    for (let t = 0; t < STDIO_TRIALS; t++) {
      for (const side of t % 2 === 0 ? (['bridge', 'raw'] as const) : (['raw', 'bridge'] as const)) {
        const t0 = performance.now()
        if (side === 'bridge') {
          const serverName = `s${t}`
          const fiber = loadBridge(host, bridgeConfig(serverName, target, { failOnStartupError: true }))
          try {
            await fiber
            bridgeTrials.push({ totalMs: performance.now() - t0, tools: namesOf(host, serverName).length })
          } finally {
            await fiber.dispose()
          }
        } else {
          const client = await connectRawV2(target)
          try {
            const tools = await listAllRaw(client)
            rawTrials.push({ totalMs: performance.now() - t0, tools: tools.length })
          } finally {
            await closeRaw(client)
          }
        }
      }
    }
    return { bridge: bridgeTrials, raw: rawTrials }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
