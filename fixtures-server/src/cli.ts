import { parseArgs } from 'node:util'
import { endWithParent, stdinIsPipe } from './lifetime.ts'
import { loadBehaviourFile } from './load.ts'
import { parseBehaviour } from './parse.ts'
import type { RuntimeOptions } from './runtime.ts'
import type { Behaviour } from './schema.ts'

const USAGE = `usage: mcp-fixture <behaviour.yaml|json> [--transport stdio|http] [--port N]
       mcp-fixture --json '<behaviour JSON>' [--transport stdio|http] [--port N]
env: MCP_FIXTURE_WIRE (JSONL wire log), MCP_FIXTURE_STATE (crash-loop start counter)
exit codes: 2 usage or invalid behaviour; otherwise whatever the behaviour scripts`

/** Exit code for usage errors and invalid behaviours. */
const USAGE_ERROR = 2

function fail(message: string): never {
  process.stderr.write(`mcp-fixture: ${message}\n${USAGE}\n`)
  process.exit(USAGE_ERROR)
}

function readOptions(argv: string[]): { behaviour: Behaviour; transport: 'stdio' | 'http'; port: number } {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { transport: { type: 'string', default: 'stdio' }, json: { type: 'string' }, port: { type: 'string', default: '0' } },
    })
  } catch (error) {
    fail((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.transport !== 'stdio' && values.transport !== 'http') fail(`unknown transport ${values.transport}`)
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid port ${values.port}`)
  if ((positionals.length === 1) === (values.json !== undefined) || positionals.length > 1) fail('give one behaviour file or --json')
  try {
    const behaviour = values.json !== undefined ? parseBehaviour(JSON.parse(values.json), '--json behaviour') : loadBehaviourFile(positionals[0]!)
    return { behaviour, transport: values.transport, port }
  } catch (error) {
    fail((error as Error).message)
  }
}

const { behaviour, transport, port } = readOptions(process.argv.slice(2))
const runtime: RuntimeOptions = {
  wireFile: process.env.MCP_FIXTURE_WIRE || undefined,
  stateFile: process.env.MCP_FIXTURE_STATE || undefined,
}

try {
  if (transport === 'stdio') {
    // Each edge loads only its own modules: start-up time is what every spawned fixture pays.
    const { runStdio } = await import('./stdio.ts')
    await runStdio(behaviour, runtime)
  } else {
    const { startHttpFixture } = await import('./http-server.ts')
    const fixture = await startHttpFixture(behaviour, {
      ...runtime,
      port,
      stderr: (line) => void process.stderr.write(`${line}\n`),
      onExit: (code) => process.exit(code),
    })
    // The one machine-readable line a parent waits for; nothing else is written to stdout.
    process.stdout.write(`${JSON.stringify({ ready: true, url: fixture.url, pid: process.pid })}\n`)
    endWithParent(() => process.exit(0), stdinIsPipe())
  }
} catch (error) {
  fail((error as Error).message)
}
