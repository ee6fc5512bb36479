import { readdirSync, readFileSync } from 'node:fs'

/**
 * The process table, read from /proc (Linux), for tests that prove no process outlived its owner.
 * Processes are found by parentage from a pid the test started, never by name; a pid is paired
 * with its start time, so a reused pid is never mistaken for a survivor. Zombies count as gone:
 * they have exited and only wait to be reaped.
 */
export interface ProcessEntry {
  pid: number
  ppid: number
  pgid: number
  /** Clock ticks after boot. */
  start: number
  state: string
}

export function processTable(): ProcessEntry[] {
  const entries: ProcessEntry[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const entry = readEntry(Number(name))
    if (entry) entries.push(entry)
  }
  return entries
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command (which may hold spaces and parentheses): state ppid pgrp ... starttime (field 22).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: Number(fields[19]), state: fields[0]! }
  } catch {
    return undefined // Gone while we looked.
  }
}

/** Every live process below `root` (children, their children, ...), `root` excluded. */
export function descendants(root: number): ProcessEntry[] {
  const table = processTable().filter((entry) => entry.state !== 'Z')
  const found: ProcessEntry[] = []
  let frontier = new Set([root])
  while (frontier.size > 0) {
    const next = table.filter((entry) => frontier.has(entry.ppid))
    found.push(...next)
    frontier = new Set(next.map((entry) => entry.pid))
  }
  return found
}

/** The processes of `entries` still alive: same pid, same start time, not a zombie. */
export function survivors(entries: readonly ProcessEntry[]): ProcessEntry[] {
  return entries.filter((entry) => {
    const now = readEntry(entry.pid)
    return now !== undefined && now.start === entry.start && now.state !== 'Z'
  })
}

/** Polls until none of `entries` is alive or `boundMs` passes; resolves with what is left. */
export async function survivorsAfter(entries: readonly ProcessEntry[], boundMs: number): Promise<ProcessEntry[]> {
  const deadline = Date.now() + boundMs
  for (;;) {
    const left = survivors(entries)
    if (left.length === 0 || Date.now() >= deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** True while `pid` exists and is not a zombie (kill(pid, 0) also finds zombies). */
export function isRunning(pid: number): boolean {
  const entry = readEntry(pid)
  return entry !== undefined && entry.state !== 'Z'
}
