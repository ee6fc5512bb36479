/**
 * A raw, line-based stdio connection. The SDK transport would drop or throw on the very things
 * the stdio checks judge (non-JSON lines, stray responses, a server that ignores EOF), so the
 * harness reads the child's stdout itself and keeps every line it could not accept.
 */
import { isUtf8 } from 'node:buffer'
import type { ChildProcess } from 'node:child_process'
import { descendantsOf, groupGone, groupMembers, groupsSupported, killRecorded, onShutdown, type ProcessEntry, processTable, redactSecrets, signalGroup, settlesWithin, spawnGroup, stderrExcerpt, stillRunning, stopGroup } from '@mcp-bridge/process'
import { answers, classify, responseOutcome } from './jsonrpc.ts'
import { Ledger } from './ledger.ts'
import type { NotifyOutcome, RpcOutcome, Wire, WireEntry } from './types.ts'
import { cut } from '../quote.ts'

export interface StdioTarget {
  command: string
  args: string[]
  env?: Record<string, string>
  cwd?: string
}

export interface NoiseLine {
  line: number
  text: string
  reason: string
}

export interface StdioShutdown {
  /** What it took to end the process after stdin was closed. */
  escalation: 'none' | 'SIGTERM' | 'SIGKILL' | 'exited-before-close' | 'unkillable'
  exitCode: number | null
  signal: string | null
  /**
   * Processes the server started that were still running after it exited (and the orphan grace):
   * 'not-checked' where process groups do not exist (Windows).
   */
  orphans: 'none' | 'found' | 'not-checked'
  /** How they were looked for: by descent and group (a readable process table), or by group alone. */
  orphanSearch?: 'descent-and-group' | 'group'
  /** Distinct processes below the server the kit recorded while it ran (by descent; capped). */
  descendantsSeen?: number
  /** The survivors, each killed by the kit by its recorded pid (and its own group, if it leads one). */
  leftBehind?: LeftBehind[]
  /** How many survived, when more than `leftBehind` names. */
  leftBehindCount?: number
}

export interface LeftBehind {
  pid: number
  /** The executable's short name. */
  name: string
  /** 'group': in the server's process group; 'own-group': it had left it (setsid or detached), found by descent. */
  where: 'group' | 'own-group'
}

const MAX_LINE_BYTES = 16 * 1024 * 1024
/** If the kit dies without stopping its server: SIGTERM to the server's group, SIGKILL this much later. */
const WATCHDOG_GRACE_MS = 500
/** On SIGINT/SIGTERM, each step of the server's shutdown (EOF, SIGTERM, SIGKILL) waits this long. */
const SIGNAL_GRACE_MS = 500
const MAX_NOISE_KEPT = 20
const STDERR_TAIL_CHARS = 4_000
/** When the server exits, its stderr is awaited this long (a grandchild may hold it open) before its pending requests end. */
const STDERR_DRAIN_MS = 500

/** Server messages copied into one request's wire (its evidence); the ledger counts and judges every one. */
const MAX_WIRE_COPIES = 50
/** Stray responses kept (a flood of them must not cost memory without end). */
const MAX_STRAYS = 100
/** While the server runs its descendants are recorded this often (a parent that dies hides its children's descent). */
const RECORD_EVERY_MS = 250
/** Descendants recorded at most (a fork bomb must not cost memory without end); survivors are still found by group. */
const MAX_RECORDED = 1_000
/** Survivors named in a result at most. */
const MAX_LEFT_BEHIND = 20

interface Pending {
  /** How many server messages were copied into `wire`, or skipped past MAX_WIRE_COPIES. */
  copied?: number
  wire: WireEntry[]
  resolve: (outcome: RpcOutcome) => void
}

export class StdioWire implements Wire {
  readonly transport = 'stdio' as const
  readonly strays: unknown[] = []
  /** Every message both ways, judged by the JSON-RPC envelope rules; it also answers server requests. */
  readonly ledger = new Ledger()
  /** Lines on stdout that were not MCP messages (the first few, truncated). */
  readonly noise: NoiseLine[] = []
  noiseCount = 0
  /** Lines that were not valid UTF-8 (the first few, decoded with replacement characters). */
  readonly invalidUtf8: NoiseLine[] = []
  invalidUtf8Count = 0
  linesSeen = 0
  private stderr = ''
  private parts: Buffer[] = []
  private partBytes = 0
  private discarding = false
  private nextId = 0
  private readonly pending = new Map<number, Pending>()
  private exit: { code: number | null; signal: string | null } | undefined
  private readonly exited: Promise<void>
  private shutdownResult: Promise<StdioShutdown> | undefined
  private readonly offShutdown: () => void
  /** Every descendant of the server seen while it ran, by pid and start time: descent is lost once a parent dies. */
  private readonly recorded = new Map<string, ProcessEntry>()
  private tableReadable = true
  private readonly recorder: NodeJS.Timeout | undefined

  private constructor(private readonly child: ChildProcess) {
    if (groupsSupported) {
      this.recorder = setInterval(() => this.record(), RECORD_EVERY_MS)
      this.recorder.unref()
    }
    const stderrEnded = new Promise<void>((resolve) => {
      if (!child.stderr) return resolve()
      child.stderr.once('end', () => resolve())
      child.stderr.once('close', () => resolve())
      child.stderr.once('error', () => resolve())
    })
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal }
        clearInterval(this.recorder)
        // What it said as it died (a missing module, a bad flag) names the failure: wait, bounded, for the rest of stderr.
        void settlesWithin(stderrEnded, STDERR_DRAIN_MS).then(() => {
          for (const [id, entry] of this.pending) {
            this.pending.delete(id)
            entry.resolve({ kind: 'closed', reason: `the server process exited (${this.exitText()})${this.stderrReason()}`, wire: entry.wire })
          }
          resolve()
        })
      })
    })
    child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk))
    // Decoded once, by the stream: a character split across two chunks survives.
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_TAIL_CHARS)
    })
    // Writing to a dead server raises EPIPE on stdin; the exit handler already reports it.
    child.stdin?.on('error', () => {})
    // A kit stopped by SIGINT/SIGTERM stops its server quickly before it exits.
    this.offShutdown = onShutdown(() => this.shutdown(SIGNAL_GRACE_MS))
  }

  /** Spawns the server; an executable that cannot be started is reported, not thrown. */
  static start(target: StdioTarget): Promise<StdioWire | { error: string }> {
    return new Promise((resolve) => {
      let child: ChildProcess
      try {
        // Its own process group, with a watchdog: the server and what it starts die with the kit,
        // even a kit that is SIGKILLed (@mcp-bridge/process).
        child = spawnGroup(target.command, target.args, { env: { ...process.env, ...target.env }, cwd: target.cwd, graceMs: WATCHDOG_GRACE_MS }).child
      } catch (error) {
        resolve({ error: `could not start ${target.command}: ${error instanceof Error ? error.message : String(error)}` })
        return
      }
      child.once('error', (error) => resolve({ error: `could not start ${target.command}: ${error.message}` }))
      child.once('spawn', () => resolve(new StdioWire(child)))
    })
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  get hasExited(): boolean {
    return this.exit !== undefined
  }

  /** Redacted: the tail ends up in reports, and servers print their connection strings. */
  stderrTail(): string {
    return redactSecrets(this.stderr)
  }

  /**
   * The line of the stderr tail that names the failure (the plugin's rule, stderrExcerpt; else the
   * last line), redacted, cut and quoted, for a message about the server's exit; '' when it said nothing.
   */
  stderrReason(): string {
    const lines = this.stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '')
    const line = lines.length ? stderrExcerpt(lines, 1)[0] : undefined
    return line ? `; its stderr: ${JSON.stringify(cut(line, 200))}` : ''
  }

  exitText(): string {
    if (!this.exit) return 'still running'
    return this.exit.signal ? `signal ${this.exit.signal}` : `exit code ${String(this.exit.code)}`
  }

  request(method: string, params?: Record<string, unknown>, timeoutMs = 10_000): Promise<RpcOutcome> {
    const id = ++this.nextId
    const message = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }
    const wire: WireEntry[] = [{ dir: 'client→server', message }]
    if (this.exit) return Promise.resolve({ kind: 'closed', reason: `the server process had exited (${this.exitText()})${this.stderrReason()}`, wire })
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        // A client that stops waiting tells the server so (lifecycle: timeouts) — except for
        // initialize, which clients must not cancel.
        if (method !== 'initialize') this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timed out' } })
        resolve({ kind: 'timeout', afterMs: timeoutMs, wire })
      }, timeoutMs)
      this.pending.set(id, {
        wire,
        resolve: (outcome) => {
          clearTimeout(timer)
          resolve(outcome)
        },
      })
      this.write(message)
    })
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<NotifyOutcome> {
    const message = { jsonrpc: '2.0', method, ...(params ? { params } : {}) }
    const wire: WireEntry[] = [{ dir: 'client→server', message }]
    if (this.exit) return { ok: false, reason: `the server process had exited (${this.exitText()})`, wire }
    this.write(message)
    return { ok: true, wire }
  }

  /**
   * Closes stdin and escalates (SIGTERM, then SIGKILL) only when the server does not exit within
   * `graceMs`; then looks for processes the server left behind in its group. Idempotent.
   */
  shutdown(graceMs = 5_000, orphanGraceMs = 1_000): Promise<StdioShutdown> {
    this.shutdownResult ??= this.runShutdown(graceMs, orphanGraceMs)
    return this.shutdownResult
  }

  async close(): Promise<void> {
    await this.shutdown()
  }

  /** ServerWire: ending a stdio connection is the shutdown sequence, whose outcome is judged. */
  end(graceMs: number): Promise<StdioShutdown> {
    return this.shutdown(graceMs)
  }

  /** ServerWire: this connection is a server process. */
  get stdio(): StdioWire {
    return this
  }

  /**
   * The spec's sequence, addressed to the server's own pid as a client would address it (not to its
   * group, which would end its children with it and hide any it leaves behind): close stdin, wait,
   * SIGTERM, wait, SIGKILL. Its descendants are recorded before each step; after it exits, every
   * recorded descendant and every member of its group still running once `orphanGraceMs` has
   * passed is reported and killed by its recorded pid (and its own group, if it leads one).
   */
  private async runShutdown(graceMs: number, orphanGraceMs: number): Promise<StdioShutdown> {
    const escalation = this.exit
      ? 'exited-before-close'
      : await stopGroup(this.child, { exited: this.exited, graceMs, signal: (signal) => this.child.kill(signal), beforeStep: () => this.record() })
    if (escalation === 'unkillable') {
      this.record()
      if (this.child.pid !== undefined) signalGroup(this.child.pid, 'SIGKILL')
    }
    const orphans = await this.findOrphans(orphanGraceMs)
    this.offShutdown()
    return { escalation, exitCode: this.exit?.code ?? null, signal: this.exit?.signal ?? null, ...orphans }
  }

  /** Records the server's live descendants (by descent, so one that left the group is found too). */
  private record(): void {
    const pid = this.child.pid
    if (pid === undefined || this.exit || !groupsSupported || !this.tableReadable) return
    const found = descendantsOf(pid)
    if (!found) {
      this.tableReadable = false
      return
    }
    for (const entry of found) {
      if (this.recorded.size >= MAX_RECORDED) break
      this.recorded.set(`${entry.pid}/${entry.start}`, entry)
    }
  }

  /** What outlived the server: recorded descendants and group members, polled until gone or `graceMs` passed; then killed. */
  private async findOrphans(graceMs: number): Promise<Omit<StdioShutdown, 'escalation' | 'exitCode' | 'signal'>> {
    const pid = this.child.pid
    if (pid === undefined || !groupsSupported) return { orphans: 'not-checked' }
    const recorded = [...this.recorded.values()]
    const left = (): ProcessEntry[] | undefined => {
      const table = processTable()
      if (!table) return undefined
      const survivors = new Map(stillRunning(recorded, table).map((entry) => [entry.pid, entry]))
      for (const entry of groupMembers(pid, table) ?? []) if (!survivors.has(entry.pid)) survivors.set(entry.pid, entry)
      return [...survivors.values()]
    }
    const deadline = Date.now() + graceMs
    let survivors = left()
    if (!survivors) {
      // No process table: the group alone can be asked.
      const found = !(await groupGone(pid, graceMs))
      if (found) signalGroup(pid, 'SIGKILL')
      return { orphans: found ? 'found' : 'none', orphanSearch: 'group' }
    }
    while (survivors.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      survivors = left() ?? []
    }
    const base = { orphanSearch: 'descent-and-group' as const, descendantsSeen: recorded.length }
    if (survivors.length === 0) return { orphans: 'none', ...base }
    killRecorded(survivors)
    signalGroup(pid, 'SIGKILL')
    const leftBehind = survivors.slice(0, MAX_LEFT_BEHIND).map((entry): LeftBehind => ({ pid: entry.pid, name: cut(redactSecrets(entry.name), 40), where: entry.pgid === pid ? 'group' : 'own-group' }))
    return { orphans: 'found', ...base, leftBehind, ...(survivors.length > MAX_LEFT_BEHIND ? { leftBehindCount: survivors.length } : {}) }
  }

  private write(message: Record<string, unknown>): void {
    if (this.exit || !this.child.stdin?.writable) return
    this.ledger.sent(message)
    this.child.stdin.write(`${JSON.stringify(message)}\n`)
  }

  private onStdout(chunk: Buffer): void {
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(10, start)
      if (newline < 0) break
      const piece = chunk.subarray(start, newline)
      start = newline + 1
      if (this.discarding) {
        this.discarding = false
        continue
      }
      // The size decides, not where the chunks were cut: a line over the limit that arrives whole is discarded too.
      if (this.partBytes + piece.length > MAX_LINE_BYTES) {
        this.tooLong()
        continue
      }
      const line = this.parts.length ? Buffer.concat([...this.parts, piece]) : piece
      this.parts = []
      this.partBytes = 0
      this.onLine(line)
    }
    const rest = chunk.subarray(start)
    if (rest.length === 0 || this.discarding) return
    if (this.partBytes + rest.length > MAX_LINE_BYTES) {
      this.tooLong()
      this.discarding = true
      return
    }
    this.parts.push(Buffer.from(rest))
    this.partBytes += rest.length
  }

  /** A line past MAX_LINE_BYTES: counted and named, its bytes dropped. */
  private tooLong(): void {
    this.parts = []
    this.partBytes = 0
    this.linesSeen++
    this.addNoise(`[a line longer than ${MAX_LINE_BYTES} bytes]`, 'line too long; discarded')
  }

  private onLine(bytes: Buffer): void {
    this.linesSeen++
    const raw = bytes.toString('utf8')
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    // Read on with replacement characters, as a lenient client would: the encoding is stdio/utf8's alone to judge.
    if (!isUtf8(bytes)) {
      this.invalidUtf8Count++
      if (this.invalidUtf8.length < MAX_NOISE_KEPT) this.invalidUtf8.push({ line: this.linesSeen, text: cut(text, 300), reason: 'not valid UTF-8' })
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      this.addNoise(text, text.trim() === '' ? 'empty line' : 'not JSON')
      return
    }
    const incoming = classify(value)
    const answer = this.ledger.received(value)
    switch (incoming.kind) {
      case 'invalid':
        this.addNoise(text, `not a JSON-RPC message: ${incoming.reason}`)
        return
      case 'stray':
        this.stray(value)
        this.appendToPending(value)
        return
      case 'notification':
        this.appendToPending(value)
        return
      case 'request':
        this.appendToPending(value)
        if (answer) this.write(answer)
        return
      case 'response': {
        const id = [...this.pending.keys()].find((pending) => answers(incoming.id, pending))
        const entry = id === undefined ? undefined : this.pending.get(id)
        if (id === undefined || !entry) {
          this.stray(value)
          this.appendToPending(value)
          return
        }
        this.pending.delete(id)
        entry.wire.push({ dir: 'server→client', message: value })
        entry.resolve(responseOutcome(incoming.message, entry.wire))
      }
    }
  }

  private appendToPending(message: unknown): void {
    for (const entry of this.pending.values()) {
      const copied = (entry.copied = (entry.copied ?? 0) + 1)
      if (copied <= MAX_WIRE_COPIES) entry.wire.push({ dir: 'server→client', message })
      else if (copied === MAX_WIRE_COPIES + 1) entry.wire.push({ dir: 'server→client', message: `[further server messages while this request was pending are not copied here; the ledger judged each]` })
    }
  }

  private stray(value: unknown): void {
    if (this.strays.length < MAX_STRAYS) this.strays.push(value)
  }

  private addNoise(text: string, reason: string): void {
    this.noiseCount++
    if (this.noise.length < MAX_NOISE_KEPT) this.noise.push({ line: this.linesSeen, text: cut(text, 300), reason })
  }
}
