/** Pure verdicts on the stdio transport: what reached stdout, and how the process ended. */
import type { CheckResult } from '../../model.ts'
import { judge, type Judge } from '../check.ts'
import { EXIT_ON_STDIN_CLOSE, NO_ORPHANS, STDIO_UTF8, STDOUT_ONLY_JSONRPC } from '../registry/transports.ts'
import type { NoiseLine, StdioShutdown } from '../wire/stdio.ts'
import { cut } from '../quote.ts'

export interface StdioObservation {
  linesSeen: number
  noiseCount: number
  noise: NoiseLine[]
  invalidUtf8Count: number
  /** The first lines that were not valid UTF-8, decoded with replacement characters. */
  invalidUtf8: NoiseLine[]
  shutdown: StdioShutdown
  /** The other server processes of the run (the second connection's), judged for orphans too. */
  otherShutdowns?: StdioShutdown[]
  graceMs: number
  stderrTail: string
}

export function judgeStdio(obs: StdioObservation, version: string): CheckResult[] {
  return [judgeStdout(obs, version), judgeUtf8(obs, version), judgeExit(obs, version), judgeOrphans(obs, version)]
}

function judgeUtf8(obs: StdioObservation, version: string): CheckResult {
  const j = judge(STDIO_UTF8, version)
  return j.applies ? utf8Verdict(j, obs) : j.notInRevision()
}

/** The verdict on stdout's bytes, by the legacy or the modern sentence (`j`). */
export function utf8Verdict(j: Pick<Judge, 'pass' | 'breach' | 'skip'>, obs: StdioObservation): CheckResult {
  if (obs.linesSeen === 0) return j.skip('the server wrote nothing to stdout; nothing to judge')
  if (obs.invalidUtf8Count === 0) return j.pass(`all ${obs.linesSeen} stdout lines were valid UTF-8`)
  const first = obs.invalidUtf8[0]
  const sample = first ? `; first line ${first.line}: ${JSON.stringify(cut(first.text, 80))} (each invalid byte shown as U+FFFD)` : ''
  return j.breach(`${obs.invalidUtf8Count} of ${obs.linesSeen} stdout lines were not valid UTF-8${sample}`, {
    details: { lines: obs.invalidUtf8 },
    wire: obs.invalidUtf8.map((n) => ({ dir: 'server→client', message: n.text })),
  })
}

function judgeStdout(obs: StdioObservation, version: string): CheckResult {
  const j = judge(STDOUT_ONLY_JSONRPC, version)
  if (obs.noiseCount === 0) return j.pass(`all ${obs.linesSeen} stdout lines were JSON-RPC messages`)
  const first = obs.noise[0]
  const sample = first ? `line ${first.line}: ${JSON.stringify(cut(first.text, 80))} (${first.reason})` : ''
  return j.breach(`${obs.noiseCount} of ${obs.linesSeen} stdout lines were not MCP messages; first ${sample}`, {
    details: { noise: obs.noise },
    wire: obs.noise.map((n) => ({ dir: 'server→client', message: n.text })),
  })
}

function judgeExit(obs: StdioObservation, version: string): CheckResult {
  const j = judge(EXIT_ON_STDIN_CLOSE, version)
  const { escalation } = obs.shutdown
  const details = { ...obs.shutdown, stderrTail: obs.stderrTail.slice(-1_000) }
  const how = obs.shutdown.signal ? `signal ${obs.shutdown.signal}` : `exit code ${String(obs.shutdown.exitCode)}`
  switch (escalation) {
    case 'none':
      return j.pass(`exited (${how}) after stdin closed`, { details })
    case 'exited-before-close':
      // A server MAY end the session by exiting, but every request after that went unanswered.
      return j.breach(`the server exited on its own before the run ended (${how})`, { details })
    default:
      return j.breach(stillRunning(obs), { details })
  }
}

/** How a server that outlived stdin closing was ended: the breach both revisions' exit rules name. */
export function stillRunning(obs: StdioObservation): string {
  switch (obs.shutdown.escalation) {
    case 'SIGTERM':
      return `still running ${obs.graceMs} ms after stdin closed; ended by SIGTERM`
    case 'SIGKILL':
      return 'ignored stdin closing and SIGTERM; ended by SIGKILL'
    default:
      return 'survived stdin closing, SIGTERM and SIGKILL'
  }
}

function judgeOrphans(obs: StdioObservation, version: string): CheckResult {
  const j = judge(NO_ORPHANS, version)
  const shutdowns = [obs.shutdown, ...(obs.otherShutdowns ?? [])]
  if (shutdowns.some((s) => s.orphans === 'not-checked')) return j.skip('process groups are not available on this platform')
  const byGroupOnly = shutdowns.some((s) => s.orphanSearch === 'group')
  const found = shutdowns.filter((s) => s.orphans === 'found')
  const connections = shutdowns.length === 1 ? 'the server' : `each of the ${shutdowns.length} server processes the kit started`
  const details = { connections: shutdowns.map(({ orphans, orphanSearch, descendantsSeen, leftBehind, leftBehindCount }) => ({ orphans, orphanSearch, descendantsSeen, leftBehind, leftBehindCount })) }
  if (found.length === 0) {
    if (byGroupOnly) return j.pass(`the process group of ${connections} was empty after it exited (the process table could not be read, so a process that left the group was not looked for)`, { details })
    const seen = shutdowns.reduce((n, s) => n + (s.descendantsSeen ?? 0), 0)
    const what = seen === 0 ? 'the kit saw no process started by it while it ran' : `none of the ${seen} processes the kit saw it start was still running`
    return j.pass(`after ${connections} exited, ${what} and its process group was empty (descendants read from the process table while it ran and before each shutdown step)`, { details })
  }
  const named = found.flatMap((s) => s.leftBehind ?? [])
  const count = found.reduce((n, s) => n + (s.leftBehindCount ?? s.leftBehind?.length ?? 0), 0)
  const list = named.slice(0, 5).map((p) => `${JSON.stringify(p.name)} (pid ${p.pid}, ${p.where === 'group' ? "in the server's process group" : 'in a process group of its own, found by descent'})`)
  const more = count > list.length ? ` and ${count - list.length} more` : ''
  const which = list.length ? `: ${list.join(', ')}${more}` : ''
  const whose = found.length === shutdowns.length || shutdowns.length === 1 ? '' : ` (${found.length} of the ${shutdowns.length} server processes)`
  return j.breach(`${count || 'some'} process${count === 1 ? '' : 'es'} started by the server ${count === 1 ? 'was' : 'were'} still running after it exited${whose}${which}; the harness killed ${count === 1 ? 'it' : 'them'} by pid`, { details })
}
