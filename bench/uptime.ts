/**
 * Uptime: a host of three servers kept running through what a long-lived one meets, in rotation:
 * a hot reload of its cordis.yml that changes every entry (each instance restarts on its fiber),
 * a stdio server killed (SIGKILL) and reconnected, an HTTP server killed and started again on its
 * port, and an OAuth access token past its lifetime (renewed on the next call). After each event
 * every server must answer again within a bound, and then answer a checked call. Reported: heap
 * after GC, open file descriptors (/proc/self/fd) and the host's child processes, after a warm-up
 * and at the end of the run, and fds and children again after the host's dispose.
 *
 * The run lasts BENCH_UPTIME_SECONDS (default 15, within the budget of a full bench run; at most 600). The servers are fixtures in child
 * processes, so the heap is the host's alone: the loader, the registry, the plugin and the SDK.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureCommand, readHttpLog, spawnHttpFixture, type SpawnedHttpFixture } from '@mcp-bridge/fixtures-server'
import { createFileHost, type FileHost } from '@mcp-bridge/host/loader'
import { descendantsOf } from '@mcp-bridge/process'
import { stringify } from 'yaml'
import { ECHO } from './behaviours.ts'
import { bridge, collectGarbage, sleep } from './host.ts'
import { row, verdict, type Bench, type Row, type Target } from './model.ts'
import { formatBytes, formatMs, round } from './stats.ts'

const DEFAULT_SECONDS = 15
const MAX_SECONDS = 600
/** Rotations (of the four events) before the first figures: code compiled, pools and buffers at their size. */
const WARMUP_ROTATIONS = 2
/** A server that does not answer this long after an event counts as an error (and the run goes on). */
const RECOVER_MS = 30_000
const MAX_GROWTH_BYTES = 5 * 1024 * 1024
/** undici's default keep-alive timeout: idle sockets of fetch's pool (shared by the process) close after it. */
const KEEP_ALIVE_MS = 4_000
/** Access tokens expire this long after they were issued: the oauth event waits it out. */
const TOKEN_LIFETIME_MS = 1_000
const CLIENT_ID = 'bench-uptime'
const SECRET_ENV = 'BENCH_UPTIME_CLIENT_SECRET'
const SECRET = 'cs-bench-uptime-7e1f0a93c5d2'

type Event = 'reload' | 'stdio-crash' | 'http-restart' | 'token-expiry'
const ROTATION: Event[] = ['reload', 'stdio-crash', 'http-restart', 'token-expiry']
const SERVERS = ['up-stdio', 'up-http', 'up-oauth'] as const

interface Snapshot {
  heapBytes: number
  fds: number
  /** What the fds are: sockets (TCP, Unix), pipes (children's stdio), the rest (files, epoll, eventfd). */
  fdKinds: { sockets: number; pipes: number; other: number }
  children: number
}

export const uptime: Bench = {
  id: 'uptime',
  title: 'Uptime (hot reloads, reconnects and token expiries of a 3-server host)',
  targets: ['uptime.errors', 'uptime.heap', 'uptime.fds', 'uptime.children', 'uptime.disposed.fds', 'uptime.disposed.children'],
  async run(log) {
    const seconds = Math.min(MAX_SECONDS, Math.max(5, Number(process.env.BENCH_UPTIME_SECONDS) || DEFAULT_SECONDS))
    log(`uptime: ${seconds} s of ${ROTATION.join(', ')} in rotation, ${SERVERS.length} servers, after ${WARMUP_ROTATIONS} warm-up rotations`)
    const run = await uptimeRun(seconds * 1000, log)
    const growth = run.after.heapBytes - run.before.heapBytes
    const restarts = run.events.reload * SERVERS.length + run.events['stdio-crash'] + run.events['http-restart']
    const targets: Target[] = [
      { id: 'uptime.errors', description: `errors over ${run.calls} checked calls and ${run.eventCount} events`, measured: run.errors, limit: 0, unit: 'errors', holds: run.errors === 0 },
      { id: 'uptime.heap', description: 'heap growth after GC, warm-up to end', measured: round(growth / 1024 / 1024, 2), limit: MAX_GROWTH_BYTES / 1024 / 1024, unit: 'MB', holds: growth <= MAX_GROWTH_BYTES },
      { id: 'uptime.fds', description: 'open fds at the end, against after the warm-up', measured: run.after.fds, limit: run.before.fds, unit: 'fds', holds: run.after.fds <= run.before.fds },
      { id: 'uptime.children', description: 'child processes at the end, against after the warm-up', measured: run.after.children, limit: run.before.children, unit: 'processes', holds: run.after.children <= run.before.children },
      { id: 'uptime.disposed.fds', description: "open fds after dispose and fetch's keep-alive timeout, against before the host", measured: run.settled.fds, limit: run.baseline.fds, unit: 'fds', holds: run.settled.fds <= run.baseline.fds },
      { id: 'uptime.disposed.children', description: 'child processes after dispose, against before the host', measured: run.disposed.children, limit: run.baseline.children, unit: 'processes', holds: run.disposed.children <= run.baseline.children },
    ]
    const rows: Row[] = [
      row(`events: ${ROTATION.map((e) => `${run.events[e]} ${e}`).join(', ')}`, { bridge: `${run.eventCount} in ${formatMs(run.wallMs)}`, baseline: `${run.grants} token grants` }),
      row(`checked calls: errors`, { bridge: `${run.errors} of ${run.calls}`, target: '0', holds: verdict(run.errors === 0) }),
      row(`time to answer again after an event, p50 / max`, { bridge: `${formatMs(run.recoverP50Ms)} / ${formatMs(run.recoverMaxMs)}` }),
      row(`heap after GC, warm-up -> end`, {
        bridge: `${formatBytes(run.before.heapBytes)} -> ${formatBytes(run.after.heapBytes)}`,
        ratio: `${growth >= 0 ? '+' : ''}${formatBytes(growth)} (${restarts ? formatBytes(growth / restarts) : '-'} per restart)`,
        target: '<= +5 MB',
        holds: verdict(growth <= MAX_GROWTH_BYTES),
      }),
      row(`open fds: before host, warm-up -> end, disposed, ${KEEP_ALIVE_MS / 1000 + 1} s later`, {
        bridge: `${run.baseline.fds}, ${run.before.fds} -> ${run.after.fds}, ${run.disposed.fds}, ${run.settled.fds}`,
        target: 'end <= warm-up; later <= before host',
        holds: verdict(run.after.fds <= run.before.fds && run.settled.fds <= run.baseline.fds),
      }),
      row(`child processes: before host, warm-up -> end, disposed`, {
        bridge: `${run.baseline.children}, ${run.before.children} -> ${run.after.children}, ${run.disposed.children}`,
        target: 'end <= warm-up; disposed <= before host',
        holds: verdict(run.after.children <= run.before.children && run.disposed.children <= run.baseline.children),
      }),
    ]
    const notes = run.firstError ? [`first error: ${run.firstError}`] : []
    return { rows, targets, notes, figures: { seconds, warmupRotations: WARMUP_ROTATIONS, tokenLifetimeMs: TOKEN_LIFETIME_MS, ...run } }
  },
}

interface UptimeRun {
  events: Record<Event, number>
  eventCount: number
  calls: number
  errors: number
  firstError?: string
  grants: number
  recoverP50Ms: number
  recoverMaxMs: number
  wallMs: number
  baseline: Snapshot
  before: Snapshot
  after: Snapshot
  disposed: Snapshot
  /** After dispose and the keep-alive timeout of fetch's shared pool. */
  settled: Snapshot
}

async function uptimeRun(durationMs: number, log: (line: string) => void): Promise<UptimeRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-uptime-'))
  const file = join(dir, 'cordis.yml')
  const wire = join(dir, 'oauth-wire.jsonl')
  const stdio = fixtureCommand(ECHO)
  let http: SpawnedHttpFixture | undefined
  let oauth: SpawnedHttpFixture | undefined
  let host: FileHost | undefined
  const previousSecret = process.env[SECRET_ENV]
  try {
    process.env[SECRET_ENV] = SECRET
    http = await spawnHttpFixture(ECHO)
    const httpPort = Number(new URL(http.url).port)
    oauth = await spawnHttpFixture(
      { ...ECHO, http: { oauth: { clientId: CLIENT_ID, clientSecret: SECRET, tokenLifetimeMs: TOKEN_LIFETIME_MS } } },
      { env: { ...process.env, MCP_FIXTURE_WIRE: wire } },
    )
    const oauthUrl = oauth.url
    let generation = 0
    const write = () => {
      generation++
      // Every entry changes (a timeout one ms apart), so a reload restarts all three instances.
      const common = { toolCallTimeoutMs: 30_000 + (generation % 2), reconnect: { initialDelayMs: 20, maxDelayMs: 200 } }
      const entries = [
        { id: SERVERS[0], name: '@mcp-bridge/plugin', config: { serverName: SERVERS[0], transport: 'stdio', command: stdio.command, args: stdio.args, ...common } },
        { id: SERVERS[1], name: '@mcp-bridge/plugin', config: { serverName: SERVERS[1], transport: 'streamable-http', url: http!.url, ...common } },
        {
          id: SERVERS[2],
          name: '@mcp-bridge/plugin',
          config: { serverName: SERVERS[2], transport: 'streamable-http', url: oauthUrl, auth: { type: 'client_credentials', clientId: CLIENT_ID, clientSecretEnv: SECRET_ENV, issuer: new URL(oauthUrl).origin }, ...common },
        },
      ]
      writeFileSync(file, stringify(entries))
    }
    const baseline = await snapshot()
    write()
    host = await createFileHost({ file, watch: false, logging: false, signals: false })
    if (!host.loaded.ok) throw new Error(`the first load failed: ${JSON.stringify(host.loaded.errors).slice(0, 500)}`)
    const tools = host.tools

    let n = 0
    let calls = 0
    let errors = 0
    let firstError: string | undefined
    const recoveries: number[] = []
    const fail = (message: string) => {
      errors++
      firstError ??= message
    }
    /** One checked call: the echo must be this call's own. */
    const call = async (server: string): Promise<string | undefined> => {
      const k = n++
      const result = await tools.execute(bridge.publicToolName(server, 'echo'), { text: `uptime ${k}`, n: k })
      if (result.isError) return `${server}: ${result.error.code}: ${result.error.message.slice(0, 300)}`
      const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
      return text.includes(`"n":${k}}`) ? undefined : `${server}: call ${k} got another answer: ${text.slice(0, 100)}`
    }
    /** Calls until the server answers (after an event), bounded; then one checked call. */
    const answerAgain = async (server: string) => {
      const started = performance.now()
      let last: string | undefined = 'not tried'
      while (performance.now() - started < RECOVER_MS) {
        last = await call(server)
        if (last === undefined) break
        await sleep(20)
      }
      if (last !== undefined) return fail(`${server} did not answer within ${RECOVER_MS} ms of the event: ${last}`)
      recoveries.push(performance.now() - started)
      calls++
      const error = await call(server)
      if (error !== undefined) fail(error)
    }
    const events: Record<Event, number> = { reload: 0, 'stdio-crash': 0, 'http-restart': 0, 'token-expiry': 0 }
    const apply = async (event: Event) => {
      events[event]++
      if (event === 'reload') {
        write()
        const result = await host!.loader.reload()
        if (!result.ok || result.updated.length !== SERVERS.length) fail(`reload ${generation} did not restart every entry: ${JSON.stringify(result).slice(0, 300)}`)
        for (const server of SERVERS) await answerAgain(server)
      } else if (event === 'stdio-crash') {
        const pid = host!.status.get(SERVERS[0])?.pid
        if (pid === undefined) return fail(`${SERVERS[0]} had no live child to kill`)
        process.kill(pid, 'SIGKILL')
        await answerAgain(SERVERS[0])
        if (host!.status.get(SERVERS[0])?.pid === pid) fail(`${SERVERS[0]} answered from the killed child ${pid}`)
      } else if (event === 'http-restart') {
        // Killed, not closed: the connections drop as in a crash; the new process takes the same port.
        http!.child.kill('SIGKILL')
        await http!.exited
        http = await spawnHttpFixture(ECHO, { port: httpPort })
        await answerAgain(SERVERS[1])
      } else {
        // The token issued last is past its lifetime: the next call meets a 401 and renews it.
        await sleep(TOKEN_LIFETIME_MS + 50)
        await answerAgain(SERVERS[2])
      }
    }

    for (const server of SERVERS) await answerAgain(server)
    for (let i = 0; i < WARMUP_ROTATIONS * ROTATION.length; i++) await apply(ROTATION[i % ROTATION.length]!)
    for (const event of ROTATION) events[event] = 0
    calls = 0
    recoveries.length = 0
    // Both samples wait out fetch's keep-alive first: which idle pooled sockets are still open at an
    // instant depends on timing (one more at the end than after the warm-up, in two runs of four),
    // and a leak shows as what stays open, growing with the events.
    await sleep(KEEP_ALIVE_MS + 1_000)
    const before = await snapshot()
    const grantsBefore = grantsIn(wire)
    log(`uptime: after warm-up: heap ${formatBytes(before.heapBytes)}, ${before.fds} fds (${JSON.stringify(before.fdKinds)}), ${before.children} child processes`)

    const started = performance.now()
    let eventCount = 0
    while (performance.now() - started < durationMs) {
      await apply(ROTATION[eventCount % ROTATION.length]!)
      eventCount++
    }
    const wallMs = performance.now() - started
    // Every server answers once more, so the end is measured in the same state as the start.
    for (const server of SERVERS) await answerAgain(server)
    await sleep(KEEP_ALIVE_MS + 1_000)
    const after = await snapshot()
    log(`uptime: after ${eventCount} events: heap ${formatBytes(after.heapBytes)}, ${after.fds} fds (${JSON.stringify(after.fdKinds)}), ${after.children} child processes`)

    await host.dispose()
    host = undefined
    const disposed = await snapshot()
    // Idle keep-alive sockets of fetch's shared pool close after its timeout (undici: 4 s): then again.
    await sleep(KEEP_ALIVE_MS + 1_000)
    const settled = await snapshot()
    log(`uptime: fds before the host ${JSON.stringify(baseline.fdKinds)}, after dispose ${JSON.stringify(disposed.fdKinds)}, ${KEEP_ALIVE_MS / 1000 + 1} s later ${JSON.stringify(settled.fdKinds)}`)
    const grants = grantsIn(wire) - grantsBefore
    recoveries.sort((a, b) => a - b)
    return {
      events,
      eventCount,
      calls,
      errors,
      firstError,
      grants,
      recoverP50Ms: round(recoveries[Math.floor(recoveries.length / 2)] ?? 0, 1) ?? 0,
      recoverMaxMs: round(recoveries.at(-1) ?? 0, 1) ?? 0,
      wallMs: round(wallMs, 0) ?? 0,
      baseline,
      before,
      after,
      disposed,
      settled,
    }
  } finally {
    await host?.dispose()
    await http?.close()
    await oauth?.close()
    if (previousSecret === undefined) delete process.env[SECRET_ENV]
    else process.env[SECRET_ENV] = previousSecret
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Access tokens the OAuth fixture issued so far, from its wire log. */
function grantsIn(wire: string): number {
  return readHttpLog(wire).filter((entry) => entry.token?.outcome === 'issued').length
}

/** Heap after full GCs (with turns of the event loop between, for finalizers), open fds, live descendants. */
async function snapshot(): Promise<Snapshot> {
  for (let i = 0; i < 4; i++) {
    collectGarbage()
    await new Promise((resolve) => setImmediate(resolve))
  }
  const kinds = { sockets: 0, pipes: 0, other: 0 }
  const fds = readdirSync('/proc/self/fd')
  for (const fd of fds) {
    let target = ''
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`)
    } catch {
      // Closed since the listing (the listing's own directory fd among them).
    }
    if (target.startsWith('socket:')) kinds.sockets++
    else if (target.startsWith('pipe:')) kinds.pipes++
    else kinds.other++
  }
  return { heapBytes: process.memoryUsage().heapUsed, fds: fds.length, fdKinds: kinds, children: descendantsOf(process.pid)?.length ?? -1 }
}
