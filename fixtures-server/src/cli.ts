import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { argvErrorMessage, usageErrorText } from '@mcp-bridge/process'
import { endWithParent, stdinIsPipe } from './lifetime.ts'
import { loadBehaviourFile } from './load.ts'
import { checkBehaviour } from './parse.ts'
import type { RuntimeOptions } from './runtime.ts'
import type { Behaviour } from './schema.ts'

const USAGE = `Usage:
  mcp-fixture <behaviour.yaml|json> [--transport stdio|http] [--port N]
  mcp-fixture --json '<behaviour JSON>' [--transport stdio|http] [--port N]
  mcp-fixture <scenarios/ID.yaml> [--transport stdio|http] [--port N]
  (each also takes --wire FILE and --state FILE)
  mcp-fixture --help | --version

Options:
  --transport T   stdio (the default: JSON-RPC on stdin/stdout) or http (Streamable HTTP on
                  127.0.0.1; prints one readiness line {"ready":true,"url":...,"pid":N} on stdout)
  --port N        HTTP port, 0 to 65535 (default 0: any free port)
  --json TEXT     the behaviour inline, instead of a file
  --wire FILE     JSONL wire log (overrides MCP_FIXTURE_WIRE): on the command line it reaches the
                  fixture even through a client that passes its child no environment
  --state FILE    crash-loop start counter (overrides MCP_FIXTURE_STATE)
  -h, --help      show this help
  --version       print the version

A conformance scenario file (scenarios/<id>.yaml) is accepted as is: its server: section is the behaviour.
Environment: MCP_FIXTURE_WIRE (JSONL wire log), MCP_FIXTURE_STATE (crash-loop start counter).
Exit codes: 2 usage error or invalid behaviour; otherwise whatever the behaviour scripts.
`

/** Exit code for usage errors and invalid behaviours. */
const USAGE_ERROR = 2

/** A usage error: one line naming the reason, then where the usage is (the CLIs' convention, @mcp-bridge/process). */
function usageError(reason: string): never {
  process.stderr.write(usageErrorText('mcp-fixture', reason))
  process.exit(USAGE_ERROR)
}

/** A behaviour that cannot be loaded: its message already names each problem and its path. */
function behaviourError(message: string): never {
  process.stderr.write(`mcp-fixture: ${message}\n`)
  process.exit(USAGE_ERROR)
}

type Options = { behaviour: Behaviour; transport: 'stdio' | 'http'; port: number; wire?: string; state?: string } | { print: string }

function readOptions(argv: string[]): Options {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        transport: { type: 'string', default: 'stdio' },
        json: { type: 'string' },
        wire: { type: 'string' },
        state: { type: 'string' },
        port: { type: 'string', default: '0' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    })
  } catch (error) {
    usageError(argvErrorMessage(error))
  }
  const { values, positionals } = parsed
  if (values.help) return { print: USAGE }
  if (values.version) {
    // Read only when asked: every spawned fixture pays for what start-up reads.
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    return { print: `mcp-fixture ${version}\n` }
  }
  if (values.transport !== 'stdio' && values.transport !== 'http') usageError(`--transport must be stdio or http, not ${JSON.stringify(values.transport)}`)
  const port = /^\d+$/.test(values.port) ? Number(values.port) : Number.NaN
  if (!(port >= 0 && port <= 65535)) usageError(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(values.port)}`)
  if (positionals.length > 1) usageError(`unexpected argument ${JSON.stringify(positionals[1])}`)
  if (positionals.length === 0 && values.json === undefined) usageError('missing the behaviour: give a behaviour file or --json')
  if (positionals.length === 1 && values.json !== undefined) usageError('give a behaviour file or --json, not both')
  try {
    const behaviour = values.json !== undefined ? checkBehaviour(jsonOption(values.json), () => '--json') : loadBehaviourFile(positionals[0]!)
    return { behaviour, transport: values.transport, port, wire: values.wire, state: values.state }
  } catch (error) {
    behaviourError((error as Error).message)
  }
}

/** The --json text's value; not JSON is a one-line error like any bad behaviour. */
function jsonOption(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error(`--json: not JSON (${(error as Error).message}); give the behaviour as one JSON object`)
  }
}

async function serve({ behaviour, transport, port, wire, state }: Exclude<Options, { print: string }>): Promise<void> {
  const runtime: RuntimeOptions = {
    wireFile: wire || process.env.MCP_FIXTURE_WIRE || undefined,
    stateFile: state || process.env.MCP_FIXTURE_STATE || undefined,
  }
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
    // A fixture process reports itself over HTTP too: whoever started it is judged on ending it.
    const { reportProcess } = await import('./proc-report.ts')
    reportProcess(fixture.wire, { stdin: false })
    // The one machine-readable line a parent waits for; nothing else is written to stdout.
    process.stdout.write(`${JSON.stringify({ ready: true, url: fixture.url, pid: process.pid })}\n`)
    endWithParent(() => process.exit(0), stdinIsPipe())
  }
}

const options = readOptions(process.argv.slice(2))
if ('print' in options) {
  // No process.exit here: it could cut a piped stdout short; nothing else keeps the process alive.
  process.stdout.write(options.print)
} else {
  try {
    await serve(options)
  } catch (error) {
    // A start-up failure (a port in use, say) is the caller's to fix, like a usage error.
    behaviourError((error as Error).message)
  }
}
