/**
 * `node pinned-entry.ts <module url> <export> <json args>`, started by pinned.ts under `taskset`:
 * awaits one exported function and prints its JSON result on a marked line of stdout.
 */
import { RESULT_MARK } from './pinned.ts'

const [moduleUrl, exportName, argsJson] = process.argv.slice(2)
const module = (await import(moduleUrl!)) as Record<string, (...args: unknown[]) => Promise<unknown>>
const result = await module[exportName!]!(...(JSON.parse(argsJson!) as unknown[]))
// Keep-alive sockets or a stuck handle must not keep a finished measurement open; but only once
// the line is written: stdout to a pipe is asynchronous, and exiting at once cut a long result.
process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`, () => process.exit(0))
