#!/usr/bin/env node
// The built CLI; `npm run build` (run by `npm ci` in the repository) writes dist/. Exit codes are
// documented in README.md.
const { main } = await import('../dist/cli.js')
const code = await main(process.argv.slice(2))
process.exitCode = code
// Lingering keep-alive sockets must not hold the process open once the run is over.
setTimeout(() => process.exit(code), 2_000).unref()
