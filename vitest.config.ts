import { defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'
import LongestFirst from './test/support/sequencer.ts'
import projects from './vitest.workspace.ts'

// The `mcp-bridge-source` export condition maps each package to its src/ (the published
// `types`/`default` conditions point at the build). Only projects that extend this config read it
// (the fast tier, vitest.unit.config.ts); the projects of `npm test` import the other packages from
// the build, as a user does, which `pretest` refreshes, and so do the child processes they spawn.
const conditions = ['mcp-bridge-source', ...defaultServerConditions]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects,
    // Files run side by side (vitest.workspace.ts): the longest start first.
    sequence: { sequencer: LongestFirst },
    // The JSON report is what .ci/run counts passed and failed tests from.
    reporters: ['default', ['json', { outputFile: '.vitest.json' }]],
    coverage: { provider: 'v8', include: ['plugin/src/**', 'fixtures-server/src/**', 'conformance/src/**'] },
  },
})
