import { writeFileSync } from 'node:fs'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { FixtureEngine } from './engine.ts'
import { endWithParent } from './lifetime.ts'
import { prepareRuntime, type RuntimeOptions } from './runtime.ts'
import type { Behaviour } from './schema.ts'

/**
 * Runs a fixture on this process's stdin/stdout. stdout carries JSON-RPC only; everything else
 * goes to stderr. Scripted exits are real `process.exit` calls (stdout writes to a pipe are
 * synchronous on Linux, so an answer sent before the exit is not lost).
 */
export async function runStdio(behaviour: Behaviour, options: RuntimeOptions = {}): Promise<void> {
  const runtime = prepareRuntime(behaviour, options)
  // What this child was given, values included: canary tests search it for secrets.
  if (behaviour.envDump) writeFileSync(behaviour.envDump, JSON.stringify(process.env))
  const engine = new FixtureEngine(behaviour, {
    start: runtime.start,
    wire: runtime.wire,
    host: {
      exit: (code) => process.exit(code),
      stderr: (line) => void process.stderr.write(`${line}\n`),
      envNames: () => Object.keys(process.env),
    },
  })
  engine.begin()
  await engine.connect(new StdioServerTransport())
  endWithParent(() => process.exit(0), true)
}
