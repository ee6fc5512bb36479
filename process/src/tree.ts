import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * The process tree below a pid, for an owner that must know which processes its child started,
 * including those that left the child's process group (setsid, `detached: true`): those are found
 * by descent, never by name. Linux reads /proc; elsewhere (macOS) `ps` is asked. A pid is paired
 * with its start time, so a reused pid is never mistaken for a survivor, and a zombie counts as
 * gone (it has exited and only waits to be reaped). Descent is only visible while the parents
 * live: a process whose parent died before it was recorded was adopted by init and cannot be
 * told apart by ancestry any more, so owners record at every moment that matters.
 */
export interface ProcessEntry {
  pid: number
  ppid: number
  pgid: number
  /** When it started, in the platform's own terms (clock ticks after boot on Linux). */
  start: string
  /** The executable's short name (Linux: /proc/pid/comm, at most 15 characters). */
  name: string
  zombie: boolean
}

/** Every process the owner may see; undefined where the table cannot be read. */
export function processTable(): ProcessEntry[] | undefined {
  if (process.platform === 'linux') {
    let names: string[]
    try {
      names = readdirSync('/proc')
    } catch {
      return undefined
    }
    const entries: ProcessEntry[] = []
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue
      const entry = readProc(Number(name))
      if (entry) entries.push(entry)
    }
    return entries
  }
  if (process.platform === 'win32') return undefined
  return psTable()
}

/** One process from /proc (Linux only); undefined once it is gone. */
export function readProc(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const open = stat.indexOf('(')
    const close = stat.lastIndexOf(')')
    // After the command (which may hold spaces and parentheses): state ppid pgrp ... starttime (field 22).
    const fields = stat.slice(close + 2).split(' ')
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '', name: stat.slice(open + 1, close), zombie: fields[0] === 'Z' }
  } catch {
    return undefined // Gone while we looked.
  }
}

function psTable(): ProcessEntry[] | undefined {
  let text: string
  try {
    // lstart holds spaces, so it comes last but one; comm last (it may hold spaces too).
    text = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart=,comm='], { encoding: 'utf8', timeout: 5_000, maxBuffer: 16 * 1024 * 1024 })
  } catch {
    return undefined
  }
  const entries: ProcessEntry[] = []
  for (const line of text.split('\n')) {
    // lstart: "Mon Jan  1 12:00:00 2024" (five fields).
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+(.*)$/.exec(line)
    if (!m) continue
    entries.push({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), zombie: m[4]!.startsWith('Z'), start: m[5]!, name: m[6]!.split('/').pop()!.slice(0, 15) })
  }
  return entries
}

/** Every live process below `root` (its children, their children, ...), `root` excluded; undefined where the table cannot be read. */
export function descendantsOf(root: number, table = processTable()): ProcessEntry[] | undefined {
  if (!table) return undefined
  const live = table.filter((entry) => !entry.zombie)
  const found: ProcessEntry[] = []
  const seen = new Set([root])
  let frontier = new Set([root])
  while (frontier.size > 0) {
    const next = live.filter((entry) => frontier.has(entry.ppid) && !seen.has(entry.pid))
    for (const entry of next) seen.add(entry.pid)
    found.push(...next)
    frontier = new Set(next.map((entry) => entry.pid))
  }
  return found
}

/** The live members of process group `pgid`; undefined where the table cannot be read. */
export function groupMembers(pgid: number, table = processTable()): ProcessEntry[] | undefined {
  return table?.filter((entry) => entry.pgid === pgid && !entry.zombie)
}

/** The processes of `entries` still alive: same pid, same start time, not a zombie. */
export function stillRunning(entries: readonly ProcessEntry[], table = processTable()): ProcessEntry[] {
  if (!table) return []
  const now = new Map(table.map((entry) => [entry.pid, entry]))
  return entries.filter((entry) => {
    const current = now.get(entry.pid)
    return current !== undefined && current.start === entry.start && !current.zombie
  })
}

/**
 * SIGKILLs each of `entries` that still runs (same pid, same start time), and the process group
 * of any that leads its own: what such a process started there dies with it. Never the owner's
 * own group, nor the owner. Returns the pids it signalled.
 */
export function killRecorded(entries: readonly ProcessEntry[]): number[] {
  const table = processTable()
  const own = table?.find((entry) => entry.pid === process.pid)?.pgid
  const killed: number[] = []
  for (const entry of stillRunning(entries, table)) {
    if (entry.pid === process.pid) continue
    const targets = entry.pgid === entry.pid && entry.pgid > 1 && entry.pgid !== own ? [-entry.pgid, entry.pid] : [entry.pid]
    for (const target of targets) {
      try {
        process.kill(target, 'SIGKILL')
      } catch {
        // Gone already.
      }
    }
    killed.push(entry.pid)
  }
  return killed
}
