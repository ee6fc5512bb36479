// The faulty server over stdio: `node faulty-stdio.mjs [FAULT ...]` (see faulty-core.mjs). It exits
// when stdin closes, and writes nothing but its messages to stdout.
import { createInterface } from 'node:readline'
import { FAULTS, respond } from './faulty-core.mjs'

const faults = new Set(process.argv.slice(2))
for (const fault of faults) if (!(fault in FAULTS)) throw new Error(`unknown fault ${fault}`)

const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  for (const out of respond(JSON.parse(line), faults)) process.stdout.write(Buffer.isBuffer(out) ? out : `${JSON.stringify(out)}\n`)
})
lines.on('close', () => process.exit(0))
