#!/usr/bin/env node
// The built CLI; `npm run build` (run by `npm ci` in the repository) writes dist/.
// SIGINT and SIGTERM end a fixture with 130 or 143 (it owns no processes and no temp directories:
// its wire log and state file are written synchronously, so nothing is left half done).
// A reader that closes the pipe early (`| head`) ends the output, not the fixture with a stack trace.
const { handleSignals, tolerateClosedOutput } = await import('@mcp-bridge/process')
tolerateClosedOutput()
handleSignals()
await import('../dist/cli.js')
