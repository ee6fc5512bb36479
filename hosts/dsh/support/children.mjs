// Processes this process started that are still alive, from /proc (Linux): the host must leave
// none behind once the bridge is disposed.
import { readdirSync, readFileSync } from 'node:fs'

function parentOf(pid) {
  try {
    // The command name sits in parentheses and may contain spaces; the parent pid follows it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** Pids whose ancestry leads to `root` (default: this process), with their command lines. */
export function descendants(root = process.pid) {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number)
  const parents = new Map(pids.map((pid) => [pid, parentOf(pid)]))
  const out = []
  for (const pid of pids) {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === root) {
        let command = ''
        try {
          command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
        } catch {
          // It exited meanwhile: still report it, without a command line.
        }
        out.push({ pid, command })
        break
      }
    }
  }
  return out
}
