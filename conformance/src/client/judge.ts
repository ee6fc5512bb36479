import { parseWireLog } from '@mcp-bridge/fixtures-server'
import { InputFileError, readInputFileSync } from '@mcp-bridge/process'
import type { SuiteResult } from '../model.ts'
import { checkHttpInvariants, negotiatedVersions } from './http-invariants.ts'
import { checkWireInvariants } from './invariants.ts'
import { checkAsks } from './asks.ts'
import { checkPings } from './ping.ts'
import { runRevision } from './rules.ts'
import type { Scenario } from './scenario.ts'
import { checkExpectationsFor, verdictsFor } from './verdicts.ts'

/** The largest wire log `judge --wire` reads (parsed whole, it costs a few times its size). */
export const MAX_WIRE_LOG_BYTES = 128 * 1024 * 1024

/**
 * Verdicts from a wire log recorded while any client, in any language, talked to `mcp-fixture`
 * (`--wire FILE`): the wire invariants every client must keep, the HTTP session rules when the log
 * holds HTTP requests, and, given the scenario the fixture served, its bounds on what the server
 * received. What needs the client's own view (its tools, its calls' outcomes) needs a driver.
 * The client is judged as a client (verdicts.ts): a bound the scenario keeps for bridges is not
 * applicable, a breached SHOULD is a warning, exactly as for a driven client.
 */
export function judgeWireLog(file: string, scenario?: Scenario): SuiteResult {
  const started = performance.now()
  const id = scenario ? scenario.id : 'wire-log'
  const title = scenario ? `${scenario.title} (judged from a wire log)` : 'A wire log, judged'
  let log: ReturnType<typeof parseWireLog>
  try {
    // The file is whatever the user names (a FIFO, a device, a log grown without end): read
    // bounded, or refused with one line (a harness error of the run, exit 2).
    log = parseWireLog(readInputFileSync(file, { maxBytes: MAX_WIRE_LOG_BYTES, what: 'the wire log' }))
  } catch (error) {
    const message = `${error instanceof InputFileError ? '' : `${file}: `}${(error as Error).message}`
    return { id, title, kind: 'client', target: file, checks: [{ id: 'judge/wire-log', title: 'The wire log can be read', status: 'error', message }], durationMs: Math.round(performance.now() - started) }
  }
  const { wire, http } = log
  const transport = http.length ? 'http' : 'stdio'
  const revision = runRevision(wire)
  const checks = [...checkWireInvariants(wire), ...checkPings(wire, revision), ...checkAsks(wire, revision), ...(http.length ? checkHttpInvariants(http, { negotiated: negotiatedVersions(wire), revision }) : [])]
  if (scenario) {
    const end = { tools: [], logs: [], state: '', wire, attachments: 0, http: http.length ? http : undefined }
    const received = { ...scenario, expect: { ...scenario.expect, tools: undefined, publicNames: undefined, logs: undefined, noLogs: [], state: undefined, attachments: undefined, duplicateServerNameRejected: undefined, duplicateServerNameMessage: undefined, shutdown: undefined, running: undefined, descriptions: undefined, quarantined: undefined, ownTools: undefined } }
    checks.push(...checkExpectationsFor(received, 'client', end))
  }
  if (!wire.length) checks.push({ id: 'judge/wire-log', title: 'The wire log holds messages', status: 'error', message: `${file} holds no JSON-RPC message: was the fixture started with --wire ${file}?` })
  return {
    id,
    title,
    kind: 'client',
    target: file,
    transport,
    checks: verdictsFor(scenario, 'client', checks, revision),
    durationMs: Math.round(performance.now() - started),
  }
}
