/**
 * Watches one scenario run for its sequence diagram: the fixture's wire log as it grows (the
 * fixture itself keeps no clocks, so its log stays deterministic), the client's server processes
 * and log, and the runner's own steps, each stamped with when the runner saw it.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { Observed } from '../transcript/timeline.ts'
import type { ClientSession } from './adapter.ts'

/** Wire messages drawn per run at most. */
const MAX_WIRE_EVENTS = 5000

/** Often enough to tell a request from its answer in a slow exchange, rarely enough to cost nothing. */
const POLL_MS = 10

export class TimelineRecorder {
  private readonly started = Date.now()
  private readonly seen: Observed = []
  private wireSeen = 0
  private readonly alive = new Set<number>()
  private readonly timer: NodeJS.Timeout
  private session?: ClientSession
  private offset = 0
  private partial = Buffer.alloc(0)
  private logsSeen = 0

  constructor(private readonly wireFile: string) {
    this.timer = setInterval(() => this.poll(), POLL_MS)
    this.timer.unref()
  }

  watch(session: ClientSession): void {
    this.session = session
    this.poll()
  }

  step(step: number, text: string, extra: { call?: number; end?: true } = {}): void {
    this.poll()
    this.seen.push({ at: this.now(), kind: 'step', step, text, ...extra })
  }

  /** The step in progress could not go on. */
  stepFailed(): void {
    const last = this.seen.findLast((item) => item.kind === 'step')
    if (last?.kind === 'step') last.failed = true
  }

  process(what: 'start' | 'exit', text: string): void {
    this.poll()
    this.seen.push({ at: this.now(), kind: 'process', what, text })
  }

  stop(): Observed {
    this.poll()
    clearInterval(this.timer)
    return this.seen
  }

  private now(): number {
    return Date.now() - this.started
  }

  private poll(): void {
    try {
      this.observe()
    } catch {
      // The timeline is evidence for a picture: it must never fail a run, let alone crash the
      // process from a timer. What could not be read is simply not drawn.
    }
  }

  private observe(): void {
    for (const pid of this.session?.pids() ?? []) this.alive.add(pid)
    // The wire before the exits: a process that answered and died between two polls did so in that order.
    // A runaway client (a cursor loop) writes hundreds of thousands of lines: the first thousands
    // tell the story, and drawing them all would cost minutes.
    for (const entry of this.readNewEntries()) if (this.wireSeen++ < MAX_WIRE_EVENTS) this.seen.push({ at: this.now(), kind: 'wire', dir: entry.dir, msg: entry.msg })
    for (const pid of this.alive) {
      if (isAlive(pid)) continue
      this.alive.delete(pid)
      this.seen.push({ at: this.now(), kind: 'process', what: 'exit', text: `server process ended (pid ${pid})` })
    }
    const logs = this.session?.logs() ?? []
    for (const line of logs.slice(this.logsSeen)) if (!line.startsWith('[debug]')) this.seen.push({ at: this.now(), kind: 'log', text: line })
    this.logsSeen = logs.length
  }

  /** The complete lines appended to the wire log since the last poll. */
  private readNewEntries(): WireEntry[] {
    let size: number
    try {
      size = statSync(this.wireFile).size
    } catch {
      return [] // Nothing recorded yet.
    }
    if (size <= this.offset) return []
    const buffer = Buffer.alloc(size - this.offset)
    const fd = openSync(this.wireFile, 'r')
    try {
      readSync(fd, buffer, 0, buffer.length, this.offset)
    } finally {
      closeSync(fd)
    }
    this.offset = size
    // Split on bytes: a line still being appended may end inside a multi-byte character.
    const bytes = Buffer.concat([this.partial, buffer])
    const end = bytes.lastIndexOf(0x0a) + 1
    this.partial = bytes.subarray(end)
    return bytes
      .subarray(0, end)
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          const entry = JSON.parse(line) as WireEntry | { dir: 'http' | 'proc' }
          // HTTP requests and process reports share the file; the timeline draws JSON-RPC messages.
          return entry.dir === 'recv' || entry.dir === 'send' ? [entry] : []
        } catch {
          return [] // Not a wire entry; the fixture's own reader would fail the run on it, not this.
        }
      })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
