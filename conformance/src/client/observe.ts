import type { ClientSession, ToolView } from './adapter.ts'

/** Everything the invariants judge: each tool list the client exposed, and each pid it owned. */
export class Observer {
  readonly snapshots: ToolView[][] = []
  readonly pids = new Set<number>()
  private unsubscribe?: () => void

  watch(session: ClientSession): void {
    this.sample(session)
    this.unsubscribe = session.onToolsChange(() => this.sample(session))
  }

  sample(session: ClientSession): void {
    this.snapshots.push(session.tools())
    for (const pid of session.pids()) this.pids.add(pid)
  }

  stop(): void {
    this.unsubscribe?.()
  }
}
