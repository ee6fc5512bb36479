import { handleSignals, onShutdown, tolerateClosedOutput, watchParent } from '@mcp-bridge/process'
import { terminalElicitation } from '../elicitation.ts'
import { terminalSampling } from '../sampling.ts'
import { run, type CliIo } from './run.ts'

/**
 * Process glue for the `mcp-bridge` bin: real streams, signals and the exit code. SIGINT and
 * SIGTERM stop whatever runs (the host is disposed, its servers stopped) and exit 130 or 143,
 * through @mcp-bridge/process, which the host shares (a second signal skips the graceful part).
 * Otherwise the exit code is set rather than forced, so a resource left open would show up as a
 * process that does not exit.
 */
// A reader that closes the pipe early (`mcp-bridge tools | head`) ends the output, not the run.
tolerateClosedOutput()
const releaseSignals = handleSignals({
  onSignal: (signal) => void process.stderr.write(`mcp-bridge: ${signal}: stopping every server\n`),
})
// `npx` / `npm exec` pass no signal on: when the launcher is gone, stop as if SIGTERM had come.
// Only under npm (it sets npm_command): started any other way, `nohup mcp-bridge watch &` keeps
// its meaning and outlives the shell that started it.
if (process.env.npm_command !== undefined) watchParent(() => process.kill(process.pid, 'SIGTERM'))

const io: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (line) => void process.stderr.write(`${line}\n`),
  env: process.env,
  // Questions on stderr, like the log: stdout carries the tool list and results.
  elicitation: terminalElicitation({ input: process.stdin, output: process.stderr }),
  // Offered only to entries that set sampling.enabled; the operator types the model's reply.
  sampling: terminalSampling({ input: process.stdin, output: process.stderr }),
  onStop: (handler) => onShutdown(handler),
  onReload(handler) {
    process.on('SIGHUP', handler)
    return () => process.off('SIGHUP', handler)
  },
}

try {
  process.exitCode = await run(process.argv.slice(2), io)
} catch (error) {
  process.stderr.write(`mcp-bridge: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
} finally {
  releaseSignals()
}
