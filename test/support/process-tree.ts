import * as tree from '@mcp-bridge/process'

/**
 * The process table, for tests that prove no process outlived its owner: the product's own reader
 * (@mcp-bridge/process), which finds processes by parentage from a pid the test started, never by
 * name, pairs a pid with its start time and counts zombies as gone. The tests run on Linux, where
 * the table can always be read.
 */
export type ProcessEntry = tree.ProcessEntry

export function processTable(): ProcessEntry[] {
  const table = tree.processTable()
  if (!table) throw new Error('the process table cannot be read on this machine')
  return table
}

/** Every live process below `root` (children, their children, ...), `root` excluded. */
export function descendants(root: number): ProcessEntry[] {
  return tree.descendantsOf(root, processTable()) ?? []
}

/** Polls until none of `entries` is alive or `boundMs` passes; resolves with what is left. */
export async function survivorsAfter(entries: readonly ProcessEntry[], boundMs: number): Promise<ProcessEntry[]> {
  const deadline = Date.now() + boundMs
  for (;;) {
    const left = tree.stillRunning(entries, processTable())
    if (left.length === 0 || Date.now() >= deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** True while `pid` exists and is not a zombie (kill(pid, 0) also finds zombies). */
export function isRunning(pid: number): boolean {
  return processTable().some((entry) => entry.pid === pid && !entry.zombie)
}
