#!/usr/bin/env node
// The built CLI; `npm run build` (run by `npm ci` in the repository) writes dist/.
// SIGINT and SIGTERM end a fixture with 130 or 143 (it owns no processes and no temp directories:
// its wire log and state file are written synchronously, so nothing is left half done).
const { handleSignals } = await import('@mcp-bridge/process')
handleSignals()
await import('../dist/cli.js')
