// Writes conformance/docs/SERVER-CHECKS.md from the server-check registry (run after `npm run build`).
// conformance/test/server-checks-doc.test.ts fails when the file and the registry disagree.
import { writeFileSync } from 'node:fs'
import { renderChecksTable } from '../conformance/dist/server/registry/table.js'

const target = new URL('../conformance/docs/SERVER-CHECKS.md', import.meta.url)
writeFileSync(target, renderChecksTable())
process.stderr.write(`wrote ${target.pathname}\n`)
