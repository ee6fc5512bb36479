import { run, type CliIo } from './run.ts'

/**
 * Process glue for the `mcp-bridge` bin: real streams, signals and the exit code. The exit code is
 * set rather than forced, so a resource left open would show up as a process that does not exit.
 */
const stopHandlers = new Set<() => void>()
let stopRequested = false

function onStopSignal(signal: NodeJS.Signals): void {
  // A second signal, or one that arrives while nothing can stop gracefully, ends the process now;
  // the bridge's exit hook still kills the server processes it started.
  if (stopRequested || stopHandlers.size === 0) {
    process.stderr.write(`mcp-bridge: ${signal}: exiting without a clean shutdown\n`)
    process.exit(130)
  }
  stopRequested = true
  for (const handler of [...stopHandlers]) handler()
}

process.on('SIGINT', onStopSignal)
process.on('SIGTERM', onStopSignal)

const io: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (line) => void process.stderr.write(`${line}\n`),
  env: process.env,
  onStop(handler) {
    stopHandlers.add(handler)
    return () => stopHandlers.delete(handler)
  },
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
  process.off('SIGINT', onStopSignal)
  process.off('SIGTERM', onStopSignal)
}
