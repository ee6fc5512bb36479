import { readdirSync, readFileSync } from 'node:fs'

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
