import { readFileSync } from 'node:fs'
import type { ProcEvent, WireLog } from './wire.ts'

/** This process's group (Linux: field 5 of /proc/self/stat), or undefined where it cannot be read. */
export function processGroup(pid = process.pid): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is parenthesised and may hold spaces or parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const pgid = Number(fields[2])
    return Number.isInteger(pgid) ? pgid : undefined
  } catch {
    return undefined
  }
}

/** Reports this process into its wire log: its start now, and each EOF or SIGTERM it receives. */
export function reportProcess(wire: WireLog | undefined, options: { stdin: boolean }): (event: ProcEvent) => void {
  const report = (event: ProcEvent) => wire?.recordProc(event)
  const pgid = processGroup()
  report({ event: 'start', pid: process.pid, ppid: process.ppid, ...(pgid !== undefined && { pgid }) })
  if (options.stdin) process.stdin.once('end', () => report({ event: 'eof', pid: process.pid }))
  // Prepended: it runs before a handler that exits, and the append is synchronous.
  const onSigterm = () => {
    report({ event: 'sigterm', pid: process.pid })
    // Any listener replaces Node's default (end the process). When this one is alone, the default
    // is what the fixture means, so it is restored and the signal raised again.
    if (process.listenerCount('SIGTERM') === 1) {
      process.removeListener('SIGTERM', onSigterm)
      process.kill(process.pid, 'SIGTERM')
    }
  }
  process.prependListener('SIGTERM', onSigterm)
  return report
}
