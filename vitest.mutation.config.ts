// The test run StrykerJS repeats for each mutant of plugin/src (stryker.config.mjs, `npm run
// mutation`): the plugin's own tests and every client scenario over both transports, in one flat
// project (Stryker's runner takes one). Stryker runs it in a sandbox copy of the repository, so
// @mcp-bridge/plugin is aliased to that copy's sources: through node_modules it would resolve to
// the unmutated working tree and every mutant would survive.
import { resolve } from 'node:path'
import { defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'

const conditions = ['mcp-bridge-source', ...defaultServerConditions]
const plugin = (entry: string) => resolve(process.cwd(), 'plugin/src', entry)

export default defineConfig({
  resolve: {
    conditions,
    alias: [
      { find: /^@mcp-bridge\/plugin$/, replacement: plugin('index.ts') },
      { find: /^@mcp-bridge\/plugin\/host$/, replacement: plugin('host/index.ts') },
      { find: /^@mcp-bridge\/plugin\/loader$/, replacement: plugin('loader/index.ts') },
    ],
  },
  ssr: { resolve: { conditions } },
  test: {
    include: ['plugin/test/**/*.test.ts', 'conformance/test/client-scenarios.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
})
