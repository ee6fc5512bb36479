// Mutation testing of the plugin (issue 16, docs/MUTATION.md): each mutant of plugin/src must be
// killed by the plugin's tests or by a client scenario (vitest.mutation.config.ts). Not in CI: one
// module at a time, e.g. `npm run mutation -- --mutate plugin/src/naming.ts`; incremental, so a
// second run only tests the mutants whose code or tests changed.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // The modules issue 16 names, and json-size.ts (discovery's size rule); narrow it with --mutate for a run that fits in an hour.
  mutate: ['plugin/src/connection.ts', 'plugin/src/session.ts', 'plugin/src/discovery.ts', 'process/src/json-size.ts', 'plugin/src/tool-set.ts', 'plugin/src/naming.ts', 'plugin/src/env.ts', 'plugin/src/projection.ts'],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  // Two cores, shared: one test process; a mutant that hangs a call is a timeout (detected).
  concurrency: 1,
  timeoutMS: 30_000,
  timeoutFactor: 2,
  ignoreStatic: true,
  // Only the mutated sources get @ts-nocheck: the docs test compares examples/ byte for byte.
  disableTypeChecks: 'plugin/src/**/*.ts',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  // Inside reports/ (ignored by git): the sandbox copy of the repository each run works in.
  tempDirName: 'reports/.stryker-tmp',
  ignorePatterns: ['reports', 'bench/results', 'coverage', '.artifacts', 'clients/node_modules', 'compat', 'hosts/dsh/node_modules'],
  cleanTempDir: 'always',
}
