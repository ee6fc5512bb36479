// The test run StrykerJS repeats for each mutant of plugin/src (stryker.config.mjs, `npm run
// mutation`): the plugin's own tests and every client scenario over both transports, in one flat
// project (Stryker's runner takes one). Stryker runs it in a sandbox copy of the repository, so
// @mcp-bridge/plugin is aliased to that copy's sources: through node_modules it would resolve to
// the unmutated working tree and every mutant would survive.
import { relative, resolve } from 'node:path'
import { defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const conditions = ['mcp-bridge-source', ...defaultServerConditions]
const plugin = (entry: string) => resolve(process.cwd(), 'plugin/src', entry)

/**
 * Cheap tests first. Stryker stops a mutant's run at its first failing test (bail), and vitest's
 * own order runs the longest file first: the client scenarios, minutes of real waits, ahead of a
 * unit test that fails in milliseconds. So the plugin's tests run first (one that failed on the
 * last mutant first of all, then the shortest), the scenarios last. Only the order changes: every
 * covering test still runs on a mutant that survives.
 */
class CheapTestsFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const stats = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`)
    const rank = (spec: TestSpecification) => [
      /client-scenarios-[a-z]+\.test\.ts$/.test(spec.moduleId) ? 1 : 0,
      stats(spec)?.failed ? 0 : 1,
      stats(spec)?.duration ?? Number.MAX_SAFE_INTEGER,
    ]
    const order = (a: number[], b: number[]) => a.reduce((diff, value, i) => diff || value - b[i]!, 0)
    return Promise.resolve([...files].sort((a, b) => order(rank(a), rank(b))))
  }
}

/**
 * A narrower test command for the first passes over a module (docs/MUTATION.md, "Passes"):
 * `MUTATION_TESTS=plugin` runs the plugin's own tests alone, and a comma-separated list of files
 * or globs runs just those. Leaving tests out can only let more mutants survive, so what a pass
 * kills the full command kills too; its survivors go on to the next, wider pass. `cli-bin.test.ts`
 * is never in a narrow pass: it runs the built CLI, not the mutated sources.
 */
const selection = process.env.MUTATION_TESTS
const narrow = selection !== undefined && selection !== ''
const include = !narrow
  ? ['plugin/test/**/*.test.ts', 'conformance/test/client-scenarios-*.test.ts']
  : selection === 'plugin'
    ? ['plugin/test/**/*.test.ts']
    : selection.split(',').map((entry) => entry.trim())

export default defineConfig({
  resolve: {
    conditions,
    alias: [
      { find: /^@mcp-bridge\/plugin$/, replacement: plugin('index.ts') },
      { find: /^@mcp-bridge\/plugin\/rules$/, replacement: plugin('rules.ts') },
    ],
  },
  ssr: { resolve: { conditions } },
  test: {
    include,
    exclude: narrow ? ['host/test/cli-bin.test.ts', '**/node_modules/**'] : ['**/node_modules/**'],
    testTimeout: narrow ? 30_000 : 120_000,
    hookTimeout: 60_000,
    sequence: { sequencer: CheapTestsFirst },
  },
})
