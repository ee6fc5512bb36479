/** Pure verdicts on the stdio transport: what reached stdout, and how the process ended. */
import type { CheckResult } from '../../model.ts'
import { verdict } from '../check.ts'
import { spec } from '../spec.ts'
import type { NoiseLine, StdioShutdown } from '../wire/stdio.ts'

export interface StdioObservation {
  linesSeen: number
  noiseCount: number
  noise: NoiseLine[]
  shutdown: StdioShutdown
  graceMs: number
  stderrTail: string
}

export function judgeStdio(obs: StdioObservation, version: string): CheckResult[] {
  return [judgeStdout(obs, version), judgeExit(obs, version), judgeOrphans(obs, version)]
}

function judgeStdout(obs: StdioObservation, version: string): CheckResult {
  const id = 'stdio/stdout-only-jsonrpc'
  const title = 'stdout carries nothing but JSON-RPC messages'
  const ref = spec(version, 'transports#stdio')
  if (obs.noiseCount === 0) return verdict(id, title, 'pass', `all ${obs.linesSeen} stdout lines were JSON-RPC messages`, { spec: ref })
  const first = obs.noise[0]
  const sample = first ? `line ${first.line}: ${JSON.stringify(first.text.slice(0, 80))} (${first.reason})` : ''
  return verdict(id, title, 'fail', `${obs.noiseCount} of ${obs.linesSeen} stdout lines were not MCP messages; first ${sample}`, {
    spec: ref,
    details: { noise: obs.noise },
    wire: obs.noise.map((n) => ({ dir: 'server→client', message: n.text })),
  })
}

function judgeExit(obs: StdioObservation, version: string): CheckResult {
  const id = 'stdio/exit-on-stdin-close'
  const title = `the server exits within ${obs.graceMs} ms of stdin closing`
  const { escalation } = obs.shutdown
  const evidence = { spec: spec(version, 'lifecycle#shutdown'), details: { ...obs.shutdown, stderrTail: obs.stderrTail.slice(-1_000) } }
  const how = obs.shutdown.signal ? `signal ${obs.shutdown.signal}` : `exit code ${String(obs.shutdown.exitCode)}`
  switch (escalation) {
    case 'none':
      return verdict(id, title, 'pass', `exited (${how}) after stdin closed`, evidence)
    case 'exited-before-close':
      // A server MAY end the session by exiting, but every request after that went unanswered.
      return verdict(id, title, 'warn', `the server exited on its own before the run ended (${how})`, evidence)
    case 'SIGTERM':
      return verdict(id, title, 'warn', `still running ${obs.graceMs} ms after stdin closed; ended by SIGTERM`, evidence)
    case 'SIGKILL':
      return verdict(id, title, 'warn', 'ignored stdin closing and SIGTERM; ended by SIGKILL', evidence)
    case 'unkillable':
      return verdict(id, title, 'fail', 'survived stdin closing, SIGTERM and SIGKILL', evidence)
  }
}

function judgeOrphans(obs: StdioObservation, version: string): CheckResult {
  const id = 'stdio/no-orphans'
  const title = 'no processes of the server outlive it'
  const evidence = { spec: spec(version, 'lifecycle#shutdown') }
  if (obs.shutdown.orphans === 'not-checked') return verdict(id, title, 'skip', 'process groups are not available on this platform', evidence)
  if (obs.shutdown.orphans === 'found') {
    return verdict(id, title, 'warn', 'processes started by the server were still running after it exited (the harness killed them)', evidence)
  }
  return verdict(id, title, 'pass', "the server's process group was empty after it exited", evidence)
}
