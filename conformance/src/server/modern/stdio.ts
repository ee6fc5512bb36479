/**
 * Pure verdicts on the stdio sentences of 2026-07-28 (./stdio-rules.ts), from the observation the
 * legacy stdio checks read too (../evaluate/stdio.ts): the same facts, judged by this revision's
 * own sentences, whose exit rule is a SHOULD where the earlier revisions bind only the client.
 */
import type { CheckResult } from '../../model.ts'
import { isObject } from '../check.ts'
import { stillRunning, utf8Verdict, type StdioObservation } from '../evaluate/stdio.ts'
import { cut } from '../quote.ts'
import type { ModernRevision } from '../spec.ts'
import type { NoiseLine } from '../wire/stdio.ts'
import { modernJudge } from './judge.ts'
import { MODERN_EXIT, MODERN_STDOUT, MODERN_UTF8 } from './stdio-rules.ts'

export function judgeModernStdio(obs: StdioObservation, revision: ModernRevision): CheckResult[] {
  return [judgeStdout(obs, revision), utf8Verdict(modernJudge(MODERN_UTF8, revision), obs), judgeExit(obs, revision)]
}

/** A JSON-RPC message: an object of jsonrpc "2.0" with a method, a result or an error. */
function isMessage(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === '2.0' && ('method' in value || 'result' in value || 'error' in value)
}

/**
 * Runs of consecutive noise lines that join, with the newlines put back, into one JSON-RPC
 * message: a message written with embedded newlines (pretty-printed, say). Only the kept lines
 * can be joined; each is cut at 300 characters, so a long message split this way is not found.
 */
export function splitMessages(noise: readonly NoiseLine[]): NoiseLine[][] {
  const found: NoiseLine[][] = []
  let start = 0
  while (start < noise.length) {
    let end = -1
    for (let last = start + 1; last < noise.length && noise[last]!.line === noise[last - 1]!.line + 1; last++) {
      try {
        if (isMessage(JSON.parse(noise.slice(start, last + 1).map((n) => n.text).join('\n')))) {
          end = last
          break
        }
      } catch {
        // Not yet a whole JSON value: try one more line.
      }
    }
    if (end < 0) start++
    else {
      found.push(noise.slice(start, end + 1))
      start = end + 1
    }
  }
  return found
}

function judgeStdout(obs: StdioObservation, revision: ModernRevision): CheckResult {
  const j = modernJudge(MODERN_STDOUT, revision)
  if (obs.noiseCount === 0) return j.pass(`all ${obs.linesSeen} stdout lines were JSON-RPC messages`)
  const wire = obs.noise.map((n) => ({ dir: 'server→client', message: n.text }))
  const split = splitMessages(obs.noise)
  if (split.length) {
    const first = split[0]!
    return j.breach(`${split.length} JSON-RPC message${split.length === 1 ? ' was' : 's were'} written with embedded newlines; the first spans stdout lines ${first[0]!.line}–${first.at(-1)!.line}, so a reader of one message a line gets none of it`, { details: { split: split.map((lines) => lines.map((n) => n.line)) }, wire }, 'embedded-newline')
  }
  const first = obs.noise[0]!
  return j.breach(`${obs.noiseCount} of ${obs.linesSeen} stdout lines were not MCP messages; first line ${first.line}: ${JSON.stringify(cut(first.text, 80))} (${first.reason})`, { details: { noise: obs.noise }, wire })
}

function judgeExit(obs: StdioObservation, revision: ModernRevision): CheckResult {
  const j = modernJudge(MODERN_EXIT, revision)
  const details = { ...obs.shutdown, stderrTail: obs.stderrTail.slice(-1_000) }
  const how = obs.shutdown.signal ? `signal ${obs.shutdown.signal}` : `exit code ${String(obs.shutdown.exitCode)}`
  switch (obs.shutdown.escalation) {
    case 'none':
      return j.pass(`exited (${how}) within ${obs.graceMs} ms of stdin closing`, { details })
    case 'exited-before-close':
      return j.skip(`the server exited on its own before the kit closed stdin (${how}); nothing to judge`, { details })
    default:
      return j.breach(stillRunning(obs), { details })
  }
}
