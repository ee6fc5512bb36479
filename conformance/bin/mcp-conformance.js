#!/usr/bin/env node
// The built CLI; `npm run build` (run by `npm ci` in the repository) writes dist/. Exit codes are
// documented in README.md.
// A bare --version or --help is answered first, before the signal handling and the runners load.
// SIGINT and SIGTERM stop a run: the servers it started are stopped (then killed), its temporary
// directories removed, and it exits with 130 or 143 (@mcp-bridge/process). A run that is killed
// outright (SIGKILL) still takes its servers with it: each one's process group has a watchdog.
// A reader that closes the pipe early (`| head`) ends the output, not the run with a stack trace.
// A kit that cannot load (a broken or partial install) says so in one line and exits 2, like any
// run that gives no verdict, never 1 (a failed check) with a stack trace.
const argv = process.argv.slice(2)

/** The CLI's main(), or a text that already answers the command line; exits 2 when the kit cannot load. */
async function load() {
  try {
    const { quickAnswer } = await import('../dist/cli/quick.js')
    const quick = await quickAnswer(argv)
    if (quick !== undefined) return { quick }
    const { handleSignals, tolerateClosedOutput } = await import('@mcp-bridge/process')
    tolerateClosedOutput()
    handleSignals({ onSignal: (signal) => void process.stderr.write(`mcp-conformance: ${signal}: stopping the run\n`) })
    return await import('../dist/cli.js')
  } catch (error) {
    const reason = String(error instanceof Error ? error.message : error).split('\n')[0].slice(0, 500)
    process.stderr.write(`mcp-conformance: cannot load the kit (${JSON.stringify(reason).slice(1, -1)}): install it again (npm ci, or npm install @mcp-bridge/conformance)\n`)
    return undefined
  }
}

const loaded = await load()
if (!loaded) process.exitCode = 2
else if ('quick' in loaded) process.stdout.write(loaded.quick)
else {
  const code = await loaded.main(argv)
  process.exitCode = code
  // Lingering keep-alive sockets must not hold the process open once the run is over.
  setTimeout(() => process.exit(code), 2_000).unref()
}
