import { writeFileSync } from 'node:fs'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { FixtureEngine } from './engine.ts'
import { endWithParent } from './lifetime.ts'
import { reportProcess } from './proc-report.ts'
import { recordRejectedLines } from './stdio-lines.ts'
import { prepareRuntime, type RuntimeOptions } from './runtime.ts'
import type { Behaviour } from './schema.ts'
import { FaultyStdio, startProcessFaults } from './stdio-faults.ts'

/**
 * Runs a fixture on this process's stdin/stdout. stdout carries JSON-RPC only; everything else
 * goes to stderr. Scripted exits are real `process.exit` calls (stdout writes to a pipe are
 * synchronous on Linux, so an answer sent before the exit is not lost).
 */
export async function runStdio(behaviour: Behaviour, options: RuntimeOptions = {}): Promise<void> {
  const runtime = prepareRuntime(behaviour, options)
  // What this child was given, values included: canary tests search it for secrets.
  if (behaviour.envDump) writeFileSync(behaviour.envDump, JSON.stringify(process.env))
  const host = {
    exit: (code: number) => process.exit(code),
    stderr: (line: string) => void process.stderr.write(`${line}\n`),
  }
  const engine = new FixtureEngine(behaviour, {
    start: runtime.start,
    wire: runtime.wire,
    host: { ...host, envNames: () => Object.keys(process.env) },
  })
  // Who this server is (pid, group) and how it is asked to end, for the kit's orphan and shutdown checks.
  const report = reportProcess(runtime.wire, { stdin: true })
  // The pipe faults follow crash.starts like every scripted fault: healthy starts have none.
  const faults = engine.misbehaving ? behaviour.stdio : undefined
  if (faults) startProcessFaults(faults, { ...host, report })
  engine.begin()
  // Lines the SDK refuses are logged too, as sent: a malformed request is judged, not lost.
  const transport = recordRejectedLines(new StdioServerTransport(), (sent, reason, raw) => engine.rejected(sent, reason, raw))
  await engine.connect(faults ? new FaultyStdio(transport, faults, host, behaviour.crash?.exitCode ?? 1) : transport)
  if (!faults?.outliveParent) endWithParent(() => process.exit(0), !faults?.ignoreEof)
}
