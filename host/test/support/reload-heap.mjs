/* global setImmediate, performance */
// Hot reloads of a cordis.yml, again and again, in a process of its own started with --expose-gc:
// every reload changes each entry's config, so each instance is restarted on its fiber (Cordis
// disposes the old one and applies the new one) and connects to an in-process HTTP fixture (no
// child process: a thousand restarts stay quick). Prints the heap after GC after a warm-up (Cordis's
// log buffer full, code compiled), after the reloads, and after the host's dispose.
// Usage: node --expose-gc reload-heap.mjs <reloads> <servers>
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHttpFixture } from '@mcp-bridge/fixtures-server'
import { createFileHost } from '@mcp-bridge/host/loader'
import { stringify } from 'yaml'

const [reloads, servers] = process.argv.slice(2).map(Number)
const WARM_UP = 100
const fixture = await startHttpFixture({ tools: [{ name: 'echo' }] })
const dir = mkdtempSync(join(tmpdir(), 'reload-heap-'))
const file = join(dir, 'cordis.yml')
const ids = Array.from({ length: servers }, (_, i) => `s${i}`)
const write = (round) =>
  writeFileSync(file, stringify(ids.map((id) => ({ id, name: '@mcp-bridge/plugin', config: { serverName: id, transport: 'streamable-http', url: fixture.url, toolCallTimeoutMs: 60_000 + (round % 2) } }))))

/** The heap after full collections, with turns of the event loop between them: finalizers run there. */
async function heap() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return process.memoryUsage().heapUsed
}

async function reload(round) {
  write(round)
  const result = await host.loader.reload()
  if (!result.ok || result.updated.length !== servers) throw new Error(`reload ${round} did not restart every entry: ${JSON.stringify(result)}`)
  const tools = host.tools.list().length
  if (tools !== servers) throw new Error(`after reload ${round}, ${tools} tools instead of ${servers}`)
}

write(0)
const host = await createFileHost({ file, watch: false, logging: false, signals: false })
for (let round = 1; round <= WARM_UP; round++) await reload(round)
const start = await heap()
const began = performance.now()
for (let round = WARM_UP + 1; round <= WARM_UP + reloads; round++) await reload(round)
const ms = Math.round(performance.now() - began)
const end = await heap()
await host.dispose()
const disposed = await heap()
await fixture.close()
rmSync(dir, { recursive: true, force: true })
process.stdout.write(JSON.stringify({ start, end, disposed, ms }))
