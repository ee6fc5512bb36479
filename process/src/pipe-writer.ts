import type { Writable } from 'node:stream'
import { errorMessage } from './error-message.ts'
import { settlesWithin } from './wait.ts'

const INPUT_CLOSED = "the server's stdin is closed"
/** After EPIPE, how long the exit it stems from may take to be reported (as after SIGKILL: no grace). */
const EXIT_REPORT_MS = 1000

/**
 * The write path to a child's stdin, which never waits without a bound: a write waits for the pipe
 * to drain only while the child can still read it (a dead child, an errored or closed stdin end
 * the wait), and a child that stops reading cannot grow its owner's memory: past
 * `maxPendingBytes` waiting in the pipe, writes fail at once. Every refusal says "Not connected"
 * or "Not sent" first (isWriteRefusal).
 */
export class PipeWriter {
  /** Why nothing can be written any more, once that is so. */
  private failure?: Error
  /** One shared wait for 'drain', however many writes are blocked on it. */
  private drained?: Promise<void>
  /** Ends that wait when writing becomes impossible. */
  private onFailure?: () => void

  constructor(
    private readonly maxPendingBytes: number,
    /** Settles when the child has exited. */
    private readonly exited: () => Promise<void>,
  ) {}

  /** Writing has become impossible (or the child's stdin was never opened). */
  get failed(): boolean {
    return this.failure !== undefined
  }

  /** From now on every write fails with `error`'s message; a wait for 'drain' ends at once. */
  fail(error: Error): void {
    this.failure ??= error
    this.onFailure?.()
  }

  /** The child exited: a broken pipe is how an exit shows first, and the exit, what happened, outranks it. */
  childExited(exit: Error): void {
    if (this.failure && isBrokenPipe(this.failure)) this.failure = exit
    this.fail(exit)
  }

  /** Follows `input` to its close, after which nothing can be written. */
  watch(input: Writable): void {
    input.once('close', () => this.fail(new Error(INPUT_CLOSED)))
  }

  /** Throws when a write to `input` cannot be made now. */
  check(input: Writable | null | undefined): asserts input is Writable {
    if (!input || input.destroyed) throw new Error('Not connected')
    if (this.failure) throw new Error(`Not connected: ${this.failure.message}`)
    const waiting = input.writableLength
    if (waiting > this.maxPendingBytes) {
      throw new Error(`Not sent: the server is not reading its stdin (${waiting} bytes are waiting in the pipe)`)
    }
  }

  /** Writes `text` (after check()), resolving when the pipe takes more. */
  async write(input: Writable, text: string): Promise<void> {
    if (!input.write(text)) await this.whenWritable(input)
  }

  /** Resolves when the pipe takes more; rejects as soon as it never will. */
  private whenWritable(input: Writable): Promise<void> {
    this.drained ??= new Promise<void>((resolve, reject) => {
      const settle = () => {
        input.off('drain', settle)
        input.off('close', settle)
        input.off('error', settle)
        this.drained = undefined
        const failure = this.failure
        if (!failure) return resolve()
        if (!isBrokenPipe(failure)) return reject(new Error(`Not sent: ${failure.message}`))
        // EPIPE arrives before the exit it stems from: a moment for the exit to be reported, so
        // that the error says the server exited (and how), not only that a write failed.
        void settlesWithin(this.exited(), EXIT_REPORT_MS).then(() => {
          const now = this.failure!
          reject(new Error(`Not sent: ${isBrokenPipe(now) ? `the server closed its stdin without reading (${now.message})` : now.message}`))
        })
      }
      input.on('drain', settle)
      input.on('close', settle)
      input.on('error', settle)
      this.onFailure = settle
    })
    return this.drained
  }
}

/** An error of PipeWriter's: the message could not be written (and a closed pipe may be an exit). */
export function isWriteRefusal(error: unknown): boolean {
  return /^Not (sent|connected)\b/.test(errorMessage(error))
}

/** A write that failed because the child's end of the pipe is gone: EPIPE, or the pipe already closed. */
function isBrokenPipe(error: Error): boolean {
  return (error as NodeJS.ErrnoException).code === 'EPIPE' || error.message === INPUT_CLOSED
}
