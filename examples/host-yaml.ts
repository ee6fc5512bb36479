// Hosting from a cordis.yml file in code: what `mcp-bridge watch` does, minus the signals.
// From the repository root: node --import tsx examples/host-yaml.ts
import { fileURLToPath } from 'node:url'
import { createFileHost } from '@mcp-bridge/host/loader'

const host = await createFileHost({
  file: fileURLToPath(new URL('cordis.yml', import.meta.url)),
  watch: true, // edits to the file are applied while the host runs
  logging: { level: 'warn' },
})
// The first load never throws: problems are reported per entry, and the good entries run.
for (const error of host.loaded.errors) console.error(error.entry, error.field, error.message)
console.log(host.loaded.added) // [ 'everything', 'fs' ]

host.loader.onReload((result) => console.error('reloaded:', result.updated, result.errors))
const call = await host.tools.execute('mcp__fs__list_directory', { path: '.' })
console.log(call.content)

await host.dispose()
