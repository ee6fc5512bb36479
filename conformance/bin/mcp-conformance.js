#!/usr/bin/env node
// Runs the TypeScript CLI through tsx (no build step). Exit codes are documented in README.md.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli.ts')
const code = await main(process.argv.slice(2))
process.exitCode = code
// Lingering keep-alive sockets must not hold the process open once the run is over.
setTimeout(() => process.exit(code), 2_000).unref()
