#!/usr/bin/env node
// The built CLI; `npm run build` (run by `npm ci` in the repository) writes dist/. Exit codes are
// documented in README.md.
// SIGINT and SIGTERM stop a run: the servers it started are stopped (then killed), its temporary
// directories removed, and it exits with 130 or 143 (@mcp-bridge/process). A run that is killed
// outright (SIGKILL) still takes its servers with it: each one's process group has a watchdog.
// A reader that closes the pipe early (`| head`) ends the output, not the run with a stack trace.
const { handleSignals, tolerateClosedOutput } = await import('@mcp-bridge/process')
tolerateClosedOutput()
handleSignals({ onSignal: (signal) => void process.stderr.write(`mcp-conformance: ${signal}: stopping the run\n`) })
const { main } = await import('../dist/cli.js')
const code = await main(process.argv.slice(2))
process.exitCode = code
// Lingering keep-alive sockets must not hold the process open once the run is over.
setTimeout(() => process.exit(code), 2_000).unref()
