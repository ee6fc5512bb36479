import type { ChildProcess } from 'node:child_process'
import { LineReader, signalGroup, spawnGroup } from '@mcp-bridge/process'
import { parseDriverLine, type DriverAnswer, type DriverEvent, type DriverRequest } from './protocol.ts'

/**
 * The longest line a driver may write (an answer with a client's whole tool list, a call result
 * with images): longer is a broken protocol, and the line is counted, never held (LineReader), so
 * a driver that writes without end costs the kit a bounded amount of memory.
 */
export const MAX_DRIVER_LINE_BYTES = 16 * 1024 * 1024
/** A driver's stderr kept for the evidence: its last characters. */
const STDERR_TAIL_CHARS = 4_000
/** Distinct protocol violations kept (a driver writing garbage without end must not cost memory without end). */
const MAX_VIOLATIONS = 20
/**
 * If the kit dies without ending its driver (SIGKILL, a crash): the watchdog sends SIGTERM to the
 * driver's group and to every process the driver started (setsid ones included), and SIGKILL this
 * much later (@mcp-bridge/process).
 */
export const DRIVER_WATCHDOG_GRACE_MS = 500

/** A driver's answer, or the channel's own when the driver gave none in time (never read from a driver). */
export type ChannelAnswer = DriverAnswer | { id: number; ok: false; error: string; unanswered: true }

type Pending = { resolve: (answer: ChannelAnswer) => void; timer: NodeJS.Timeout }
type Body = DriverRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never

/** Thrown when the driver breaks the protocol or does not answer in time: a harness problem, not a verdict. */
export class DriverError extends Error {
  override name = 'DriverError'
}

/**
 * One driver process and the JSON lines to and from it. The command runs through the shell, so
 * `--driver "node my-driver.mjs --flag"` works as typed; its stderr is kept for the evidence.
 * It is started as the kit starts its servers (@mcp-bridge/process): in a process group of its
 * own, tracked by the kit's process registry and watched by a watchdog, both of which also take
 * the driver's descendants that left its group. So however the kit ends (SIGINT, SIGTERM, an
 * exit, SIGKILL), the driver and everything it started end with it.
 */
export class DriverChannel {
  private readonly child: ChildProcess
  private readonly pending = new Map<number, Pending>()
  /** Requests the kit stopped waiting for: a late answer to one is no protocol violation. */
  private readonly abandoned = new Set<number>()
  private nextId = 1
  private stderrTail = ''
  readonly exited: Promise<number | null>
  /** Protocol violations seen so far (invalid lines, an exit before the kit closed it); the first MAX_VIOLATIONS distinct ones. */
  readonly violations: string[] = []
  /** Why nothing the driver says can be read any more (a line past the limit), once it is so. */
  private broken: string | undefined
  /** Set once the kit ends the driver (end()): an exit after this is the one asked for. */
  private ending = false
  /** The driver's exit code once it has exited (null for a signal), undefined while it runs. */
  private exitCode: number | null | undefined

  constructor(command: string, onEvent: (event: DriverEvent) => void, env: NodeJS.ProcessEnv = process.env) {
    this.child = spawnGroup(command, [], { env, shell: true, graceMs: DRIVER_WATCHDOG_GRACE_MS, takeDescendants: true }).child
    this.exited = new Promise((done) => {
      this.child.once('exit', (code) => done(code))
      // A shell that cannot be started: no 'exit' follows.
      this.child.once('error', (error) => {
        this.violate(`the driver could not be started: ${error.message}`)
        done(null)
      })
    })
    // A driver that dies answers nothing more: fail what waits instead of waiting for timers.
    void this.exited.then((code) => {
      this.exitCode = code
      // A driver exits when its stdin ends (end()); before that, it has crashed: a harness problem.
      if (!this.ending) this.violate(`the driver exited (code ${code}) before the kit closed it${this.stderr() ? `; its stderr: ${this.stderr()}` : ''}`)
      this.failPending(`the driver exited (code ${code}) before answering${this.stderr() ? `; its stderr: ${this.stderr()}` : ''}`)
    })
    this.child.stdin!.on('error', () => {})
    const lines = new LineReader(MAX_DRIVER_LINE_BYTES)
    this.child.stdout!.on('data', (chunk: Buffer) => {
      for (const event of lines.push(chunk)) {
        if (event.kind === 'line') this.onLine(event.text, onEvent)
        else this.breakProtocol()
      }
      // A line that never ends is noticed as it passes the limit, not at its (never) end.
      if (lines.overflowing) this.breakProtocol()
    })
    // Only a tail is kept: a driver that writes without end to stderr costs nothing more.
    this.child.stderr!.setEncoding('utf8')
    this.child.stderr!.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS)
    })
  }

  private onLine(line: string, onEvent: (event: DriverEvent) => void): void {
    if (line.trim() === '' || this.broken) return
    const parsed = parseDriverLine(line)
    if ('invalid' in parsed) {
      this.violate(parsed.invalid)
      // An unusable answer to a pending request ends that wait at once: nothing better will come.
      const id = answerId(line)
      const pending = id === undefined ? undefined : this.pending.get(id)
      if (pending) {
        this.pending.delete(id!)
        clearTimeout(pending.timer)
        pending.resolve({ id: id!, ok: false, error: `the driver's answer broke the protocol: ${parsed.invalid}` })
      }
      return
    }
    if ('event' in parsed) return onEvent(parsed.event)
    const pending = this.pending.get(parsed.answer.id)
    if (!pending && this.abandoned.has(parsed.answer.id)) return
    if (!pending) return this.violate(`an answer to no request: id ${parsed.answer.id}`)
    this.pending.delete(parsed.answer.id)
    clearTimeout(pending.timer)
    pending.resolve(parsed.answer)
  }

  /**
   * A line past MAX_DRIVER_LINE_BYTES: whatever it was (an answer, an event, garbage), the driver
   * broke the protocol, and the run is a harness error. Every wait ends at once, and so does every
   * later request: waiting out the bounds would only let the driver keep the kit busy. What it
   * writes after is read and dropped (a pipe left unread would block it, not end it).
   */
  private breakProtocol(): void {
    if (this.broken) return
    this.broken = `the driver wrote a line longer than ${MAX_DRIVER_LINE_BYTES} bytes, the driver protocol's limit: write one JSON message per line, each within the limit`
    this.violate(this.broken)
    this.failPending(this.broken)
  }

  private failPending(error: string): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer)
      pending.resolve({ id, ok: false, error })
    }
    this.pending.clear()
  }

  private violate(violation: string): void {
    if (this.violations.length < MAX_VIOLATIONS && !this.violations.includes(violation)) this.violations.push(violation)
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  /** The id the next request will carry (an abort names the call it aborts by this id). */
  peekId(): number {
    return this.nextId
  }

  /** Sends a request; resolves with its answer, or an error answer after `timeoutMs`. */
  request(body: Body, timeoutMs: number): Promise<ChannelAnswer> {
    const id = this.nextId++
    // A driver that has exited answers nothing: no need to wait out the bound.
    if (this.exitCode !== undefined) return Promise.resolve({ id, ok: false, error: `the driver exited (code ${this.exitCode}) before "${body.op}" was asked` })
    if (this.broken) return Promise.resolve({ id, ok: false, error: `"${body.op}" was not asked: ${this.broken}` })
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        this.abandoned.add(id)
        resolve({ id, ok: false, error: `the driver did not answer "${body.op}" within ${timeoutMs} ms`, unanswered: true })
      }, timeoutMs)
      this.pending.set(id, { resolve, timer })
      this.child.stdin!.write(`${JSON.stringify({ id, ...body })}\n`)
    })
  }

  /** The last lines of the driver's stderr (at most 20, 2,000 characters). */
  stderr(): string {
    return this.stderrTail.split('\n').filter((line) => line.trim() !== '').slice(-20).join('\n').slice(-2000)
  }

  /**
   * Ends stdin (a driver exits when it ends), then SIGKILLs the driver's process group after
   * `graceMs`, and again once it is gone: a client stuck in a loop, or a child the shell left
   * behind, must not outlive the run (orphans were judged before this).
   */
  async end(graceMs = 3000): Promise<void> {
    this.ending = true
    this.child.stdin!.end()
    const killGroup = () => {
      if (this.child.pid) signalGroup(this.child.pid, 'SIGKILL')
    }
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const timer = setTimeout(killGroup, graceMs)
      await this.exited
      clearTimeout(timer)
    }
    killGroup()
  }
}

/** The numeric `id` of a line that is a JSON object, if any (to end the wait for an unusable answer). */
function answerId(line: string): number | undefined {
  try {
    const id = (JSON.parse(line) as { id?: unknown } | null)?.id
    return typeof id === 'number' ? id : undefined
  } catch {
    return undefined
  }
}
