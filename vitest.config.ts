import { defineConfig } from 'vitest/config'
import projects from './vitest.workspace.ts'

export default defineConfig({
  test: {
    projects,
    coverage: { provider: 'v8', include: ['plugin/src/**', 'fixtures-server/src/**', 'conformance/src/**'] },
  },
})
