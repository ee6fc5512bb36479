// The cordis.yml route, in plain JavaScript: `node loader.mjs <cordis.yml>` loads the file with
// createFileHost from `@mcp-bridge/host/loader` (the file names the plugin by its package name,
// which the loader imports from the installed package) and prints one JSON line:
// { node, added, errors, ok, tools }.
import { createFileHost } from '@mcp-bridge/host/loader'

const file = process.argv[2]
if (!file) throw new Error('usage: node loader.mjs <cordis.yml>')
const host = await createFileHost({ file, logging: { level: 'error' } })
const { added, errors, ok } = host.loaded
const tools = host.tools.list().map((tool) => tool.name)
await host.dispose()
console.log(JSON.stringify({ node: process.version, added, errors, ok, tools }))
