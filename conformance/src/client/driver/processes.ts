import { readdirSync, readFileSync } from 'node:fs'
import { descendantsOf } from '@mcp-bridge/process'

/**
 * Pure apart from reading /proc: the processes whose command line contains `marker`. A black-box
 * client spawns its server itself and reports no pid, but every stdio fixture of a run carries the
 * run's own wire-file path in its argv, so the process table says which servers it started.
 * Linux only; elsewhere nothing is found (and no-orphans judges nothing).
 */
export function processesWith(marker: string): number[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return []
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      return argv.includes(marker) ? [Number(entry)] : []
    } catch {
      return []
    }
  })
}

/** Reading /proc: a process's parent pid and process group, or undefined once it is gone. */
export function parentAndGroup(pid: number): { ppid: number; pgid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const [, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(ppid), pgid: Number(pgid) }
  } catch {
    return undefined
  }
}

/** Every process descended from `root` right now (children, theirs, …), not `root` itself (@mcp-bridge/process). */
export function descendants(root: number): number[] {
  return descendantsOf(root)?.map((entry) => entry.pid) ?? []
}

/** A process's command line for a report (`pid: argv…`), or just the pid once it is gone. */
export function describeProcess(pid: number): string {
  try {
    return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 200)}`
  } catch {
    return String(pid)
  }
}

/**
 * SIGKILLs each process and its process group, never the kit's own group (a child that shares it
 * is killed alone). Called once the processes were judged: what the kit found running must not
 * outlive the run.
 */
export function killWithGroups(pids: number[]): void {
  const own = parentAndGroup(process.pid)?.pgid
  for (const pid of pids) {
    const group = parentAndGroup(pid)?.pgid
    for (const target of group !== undefined && group > 1 && group !== own ? [-group, pid] : [pid]) {
      try {
        process.kill(target, 'SIGKILL')
      } catch {
        // Gone already.
      }
    }
  }
}

/** Reading /proc: the processes whose environment holds `entry` (`NAME=value`); ones the kit may not read are not found. */
export function processesWithEnv(entry: string): number[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e))
  } catch {
    return []
  }
  return entries.flatMap((e) => {
    try {
      return readFileSync(`/proc/${e}/environ`, 'utf8').split('\0').includes(entry) ? [Number(e)] : []
    } catch {
      return []
    }
  })
}
