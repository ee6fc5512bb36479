import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { parseDriverLine, type DriverAnswer, type DriverEvent, type DriverRequest } from './protocol.ts'

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
 */
export class DriverChannel {
  private readonly child: ChildProcess
  private readonly pending = new Map<number, Pending>()
  /** Requests the kit stopped waiting for: a late answer to one is no protocol violation. */
  private readonly abandoned = new Set<number>()
  private nextId = 1
  private readonly stderrTail: string[] = []
  readonly exited: Promise<number | null>
  /** Protocol violations seen so far (invalid lines, an exit before the kit closed it). */
  readonly violations: string[] = []
  /** Set once the kit ends the driver (end()): an exit after this is the one asked for. */
  private ending = false
  /** The driver's exit code once it has exited (null for a signal), undefined while it runs. */
  private exitCode: number | null | undefined

  constructor(command: string, onEvent: (event: DriverEvent) => void, env: NodeJS.ProcessEnv = process.env) {
    // Its own process group: the shell, the driver and whatever its client spawned end together.
    this.child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], env, detached: true })
    this.exited = new Promise((done) => this.child.once('exit', (code) => done(code)))
    // A driver that dies answers nothing more: fail what waits instead of waiting for timers.
    void this.exited.then((code) => {
      this.exitCode = code
      // A driver exits when its stdin ends (end()); before that, it has crashed: a harness problem.
      if (!this.ending) this.violations.push(`the driver exited (code ${code}) before the kit closed it${this.stderr() ? `; its stderr: ${this.stderr()}` : ''}`)
      for (const [id, pending] of this.pending) {
        clearTimeout(pending.timer)
        pending.resolve({ id, ok: false, error: `the driver exited (code ${code}) before answering${this.stderr() ? `; its stderr: ${this.stderr()}` : ''}` })
      }
      this.pending.clear()
    })
    this.child.stdin!.on('error', () => {})
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      if (line.trim() === '') return
      const parsed = parseDriverLine(line)
      if ('invalid' in parsed) {
        if (!this.violations.includes(parsed.invalid)) this.violations.push(parsed.invalid)
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
      if (!pending) return void this.violations.push(`an answer to no request: id ${parsed.answer.id}`)
      this.pending.delete(parsed.answer.id)
      clearTimeout(pending.timer)
      pending.resolve(parsed.answer)
    })
    createInterface({ input: this.child.stderr! }).on('line', (line) => {
      this.stderrTail.push(line)
      if (this.stderrTail.length > 20) this.stderrTail.shift()
    })
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

  stderr(): string {
    return this.stderrTail.join('\n').slice(-2000)
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
      try {
        if (this.child.pid) process.kill(-this.child.pid, 'SIGKILL')
      } catch {
        // The group is gone already.
      }
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
