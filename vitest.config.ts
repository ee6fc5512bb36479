import { defineConfig } from 'vitest/config'
import projects from './vitest.workspace.ts'

export default defineConfig({
  test: {
    projects,
    // The JSON report is what .ci/run counts passed and failed tests from.
    reporters: ['default', ['json', { outputFile: '.vitest.json' }]],
    coverage: { provider: 'v8', include: ['plugin/src/**', 'fixtures-server/src/**', 'conformance/src/**'] },
  },
})
