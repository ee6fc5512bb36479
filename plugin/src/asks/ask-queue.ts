/**
 * The asks of one connection reach the host one at a time: a person answers one question at a
 * time, and a server that floods asks must not stack prompts (or a host's memory). At most
 * `maxWaiting` asks wait behind the one being answered; `run` refuses any beyond that (undefined),
 * and the caller declines it at once.
 */
export class AskQueue {
  private tail: Promise<unknown> = Promise.resolve()
  private pending = 0

  constructor(private readonly maxWaiting: number) {}

  run<T>(task: () => Promise<T>): Promise<T> | undefined {
    if (this.pending > this.maxWaiting) return undefined
    this.pending++
    const done = this.tail.then(task).finally(() => this.pending--)
    this.tail = done.catch(() => undefined)
    return done
  }
}
