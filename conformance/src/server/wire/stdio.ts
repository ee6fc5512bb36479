/**
 * A raw, line-based stdio connection. The SDK transport would drop or throw on the very things
 * the stdio checks judge (non-JSON lines, stray responses, a server that ignores EOF), so the
 * harness reads the child's stdout itself and keeps every line it could not accept.
 */
import { isUtf8 } from 'node:buffer'
import type { ChildProcess } from 'node:child_process'
import { groupGone, groupsSupported, onShutdown, signalGroup, spawnGroup } from '@mcp-bridge/process'
import { answers, classify, responseOutcome } from './jsonrpc.ts'
import { Ledger } from './ledger.ts'
import type { NotifyOutcome, RpcOutcome, Wire, WireEntry } from './types.ts'
import { redactSecrets } from '@mcp-bridge/plugin'
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
  /** Processes left in the server's process group after it exited. */
  orphans: 'none' | 'found' | 'not-checked'
}

const MAX_LINE_BYTES = 16 * 1024 * 1024
/** If the kit dies without stopping its server: SIGTERM to the server's group, SIGKILL this much later. */
const WATCHDOG_GRACE_MS = 500
/** On SIGINT/SIGTERM, each step of the server's shutdown (EOF, SIGTERM, SIGKILL) waits this long. */
const SIGNAL_GRACE_MS = 500
const MAX_NOISE_KEPT = 20
const STDERR_TAIL_CHARS = 4_000

/** Server messages copied into one request's wire (its evidence); the ledger counts and judges every one. */
const MAX_WIRE_COPIES = 50
/** Stray responses kept (a flood of them must not cost memory without end). */
const MAX_STRAYS = 100

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

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal }
        for (const [id, entry] of this.pending) {
          this.pending.delete(id)
          entry.resolve({ kind: 'closed', reason: `the server process exited (${this.exitText()})`, wire: entry.wire })
        }
        resolve()
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

  exitText(): string {
    if (!this.exit) return 'still running'
    return this.exit.signal ? `signal ${this.exit.signal}` : `exit code ${String(this.exit.code)}`
  }

  request(method: string, params?: Record<string, unknown>, timeoutMs = 10_000): Promise<RpcOutcome> {
    const id = ++this.nextId
    const message = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }
    const wire: WireEntry[] = [{ dir: 'client→server', message }]
    if (this.exit) return Promise.resolve({ kind: 'closed', reason: `the server process had exited (${this.exitText()})`, wire })
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

  private async runShutdown(graceMs: number, orphanGraceMs: number): Promise<StdioShutdown> {
    let escalation: StdioShutdown['escalation'] = 'none'
    if (this.exit) escalation = 'exited-before-close'
    else {
      this.child.stdin?.end()
      if (!(await this.exitedWithin(graceMs))) {
        escalation = 'SIGTERM'
        this.kill('SIGTERM')
        if (!(await this.exitedWithin(graceMs))) {
          escalation = 'SIGKILL'
          this.kill('SIGKILL')
          if (!(await this.exitedWithin(graceMs))) escalation = 'unkillable'
        }
      }
    }
    const pid = this.child.pid
    let orphans: StdioShutdown['orphans'] = 'not-checked'
    if (pid !== undefined && groupsSupported) {
      orphans = (await groupGone(pid, orphanGraceMs)) ? 'none' : 'found'
      if (orphans === 'found') signalGroup(pid, 'SIGKILL')
    }
    this.offShutdown()
    return { escalation, exitCode: this.exit?.code ?? null, signal: this.exit?.signal ?? null, orphans }
  }

  private kill(signal: NodeJS.Signals): void {
    const pid = this.child.pid
    if (pid !== undefined && groupsSupported && signalGroup(pid, signal)) return
    this.child.kill(signal)
  }

  private async exitedWithin(ms: number): Promise<boolean> {
    if (this.exit) return true
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
    const done = await Promise.race([this.exited.then(() => true as const), timeout])
    clearTimeout(timer)
    return done
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
      const line = this.parts.length ? Buffer.concat([...this.parts, piece]) : piece
      this.parts = []
      this.partBytes = 0
      this.onLine(line)
    }
    const rest = chunk.subarray(start)
    if (rest.length === 0 || this.discarding) return
    if (this.partBytes + rest.length > MAX_LINE_BYTES) {
      this.parts = []
      this.partBytes = 0
      this.discarding = true
      this.linesSeen++
      this.addNoise(`[a line longer than ${MAX_LINE_BYTES} bytes]`, 'line too long; discarded')
      return
    }
    this.parts.push(Buffer.from(rest))
    this.partBytes += rest.length
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
