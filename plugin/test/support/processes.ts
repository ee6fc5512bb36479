import { readdirSync, readFileSync } from 'node:fs'

/**
 * Processes this test process started and that still exist (zombies included), read from /proc:
 * found by parentage, never by name. Linux only, like the tests that use it.
 */
export function childrenOfThisProcess(): number[] {
  return processTable()
    .filter((entry) => entry.ppid === process.pid)
    .map((entry) => entry.pid)
}

export interface ProcessEntry {
  pid: number
  ppid: number
  pgid: number
  /** Clock ticks after boot: with the pid, it names one process even if the pid is reused. */
  start: number
}

export function processTable(): ProcessEntry[] {
  const entries: ProcessEntry[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // Fields after the command (which may contain spaces and parentheses): state ppid pgrp ... starttime (22nd).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      entries.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), start: Number(fields[19]) })
    } catch {
      // Gone while we looked.
    }
  }
  return entries
}
