import { readFileSync } from 'node:fs'
import { readProcLog, type ProcEvent } from '@mcp-bridge/fixtures-server'
import type { CheckResult, SpecRef } from '../model.ts'
import { LATEST_REVISION } from '../server/spec.ts'
import { clientSpec } from './rules.ts'

/**
 * Process evidence from the fixture's side: every fixture process writes its pid, group and
 * children into its wire log (fixtures-server/src/proc-report.ts), whoever spawned it. So the
 * orphan check knows every server a client started (a crash loop's every start, a server that
 * hung in initialize, a driven client's), and each one's grandchildren.
 */
export interface ReportedProcesses {
  /** Every fixture process that started, in order. */
  servers: number[]
  /** Their children (grandchildren of the client). */
  children: number[]
  events: ProcEvent[]
}

export function reportedProcesses(wireFile: string): ReportedProcesses {
  const events = readProcLog(wireFile)
  return {
    servers: events.flatMap((e) => (e.event === 'start' ? [e.pid] : [])),
    children: events.flatMap((e) => (e.event === 'child' ? [e.child] : [])),
    events,
  }
}

/** Alive and not a zombie (a zombie has ended; only its parent has not collected it yet). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    // No /proc (not Linux): the signal said it exists.
    return true
  }
}

/** The processes still alive once exit has had a moment (exit is asynchronous; bounded at 1 s). */
export async function survivors(pids: number[]): Promise<number[]> {
  const alive = () => pids.filter(isAlive)
  for (let i = 0; i < 50 && alive().length; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  return alive()
}


/**
 * Pure: the last server the client started saw exactly these shutdown requests, in this order, and
 * is gone. SIGKILL leaves no line: a server that ignores EOF and SIGTERM shows `[eof, sigterm]` and
 * its end, and the time the dispose step took (timing) says each wait was honoured.
 */
export function checkShutdown(expected: Array<'eof' | 'sigterm'>, reported: ReportedProcesses, orphans: number[], revision: string = LATEST_REVISION): CheckResult {
  // A SHOULD: a client's breach warns, a bridge's fails as its own rule (verdicts.ts).
  const SHUTDOWN: SpecRef = clientSpec('shutdown/stdio', revision)
  const title = 'The server was asked to end in order: stdin EOF, then SIGTERM, then SIGKILL'
  const last = reported.servers.at(-1)
  if (last === undefined) return { id: 'expect/shutdown', title, status: 'fail', message: 'no server process reported its start', spec: SHUTDOWN }
  const saw = reported.events.flatMap((e) => (e.pid === last && (e.event === 'eof' || e.event === 'sigterm') ? [e.event] : []))
  const problems = [
    ...(JSON.stringify(saw) === JSON.stringify(expected) ? [] : [`the server (pid ${last}) saw [${saw.join(', ')}], expected [${expected.join(', ')}]`]),
    ...(orphans.includes(last) ? [`the server (pid ${last}) is still running`] : []),
  ]
  return { id: 'expect/shutdown', title, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : `the server saw [${saw.join(', ')}] and has exited`, spec: SHUTDOWN }
}
