// The list of test projects. Vitest 4 no longer reads this file by itself: vitest.config.ts
// imports it into `test.projects`.
/**
 * `expect.poll` waits for what a real child process or socket does; its default bound of 1 s is
 * shorter than a child's start on a loaded 2-core machine (a reconnect in the canary test missed it
 * while other work ran). A poll that never comes true still fails, once this bound has passed.
 */
const expect = { poll: { timeout: 15_000 } }

/**
 * Four files at a time unless VITEST_MAX_WORKERS says otherwise (1 runs them one at a time). Most
 * of a file's time waits on the child processes, sockets and installs it starts, so four at a time
 * finished 18 slow files in 0.48x the time. The bounds that four files side by side broke on a
 * loaded 2-core machine were preconditions set far below what a loaded machine needs (a connect of
 * 1.5 s, the default run's 240 s); they now follow from what each test proves. Every
 * project but `alone` shares this figure: vitest runs projects of one `groupOrder` in one pool,
 * which needs one `maxWorkers`.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || 4
// A test's own bound (60 s where a file starts children) only catches a hang: four files side by
// side on a loaded machine took a CLI test past 30 s. What a test proves keeps its own bounds.

/** The files that run after all others, one at a time (the `alone` project below). */
const ALONE = ['conformance/test/under-load.test.ts', 'conformance/test/client-catches-timing-bugs.test.ts']

export default [
  // Rules over the repository itself (the import graph).
  { test: { name: 'repo', maxWorkers, include: ['test/repo/**/*.test.ts'], expect } },
  { test: { name: 'process', maxWorkers, include: ['process/test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000, expect } },
  // The benchmark's own bookkeeping (bench/*.test.ts), not its measurements.
  { test: { name: 'bench', maxWorkers, include: ['bench/**/*.test.ts'], expect } },
  { test: { name: 'plugin', maxWorkers, include: ['plugin/test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000, expect } },
  { test: { name: 'host', maxWorkers, include: ['host/test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000, expect } },
  {
    test: {
      name: 'fixtures-server',
      maxWorkers,
      include: ['fixtures-server/test/**/*.test.ts'],
      testTimeout: 60_000,
      hookTimeout: 60_000,
      expect,
    },
  },
  {
    // One module graph per worker, not per file (isolate: false): the kit's 109 files imported the
    // kit, the plugin and the SDK 109 times, 97 s of a run's import time, 22 s shared. Its tests keep
    // no process-wide state (what they start are child processes, judged by their own pids); the
    // plugin's tests count their own process's children, so they keep a process per file.
    test: { name: 'conformance', maxWorkers, isolate: false, include: ['conformance/test/**/*.test.ts'], exclude: ALONE, testTimeout: 120_000, hookTimeout: 60_000, expect },
  },
  // Last, one file at a time (groupOrder 1: vitest runs this group after the others): the default
  // run calm, then with every core kept busy (under-load), so its CPU burners slow no other test;
  // and the buggy clients whose bugs show as an outcome too soon (a busy poll, a retry inside the
  // settle window): three other files beside them slowed those clients until they looked sound.
  // The bugs that show as an outcome too late run with the other files: load only makes them later.
  { test: { name: 'alone', maxWorkers: 1, include: ALONE, testTimeout: 1_000_000, hookTimeout: 60_000, sequence: { groupOrder: 1 }, expect } },
  // Packs the workspaces, installs the tarballs into a fresh temp project and runs them under this
  // Node and Node 22 and 24, the kit's whole default run under this Node only
  // (test/package/package.test.ts): the install alone may take minutes when cold.
  { test: { name: 'package', maxWorkers, include: ['test/package/**/*.test.ts'], testTimeout: 600_000, hookTimeout: 600_000, expect } },
  // The official conformance suite's client requirement sets against the plugin (test/official):
  // compat/official installed with npm ci, run with Node 22; about 4 minutes on 2 cores.
  { test: { name: 'official', maxWorkers, include: ['test/official/**/*.test.ts'], testTimeout: 900_000, hookTimeout: 600_000, expect } },
  // The plugin inside the DeepSeek harness (test/dsh/drop-in.test.ts): hosts/dsh installed with
  // npm ci into a temp project, run with Node 22; about 5 s warm, minutes when the cache is cold.
  { test: { name: 'dsh', maxWorkers, include: ['test/dsh/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 600_000, expect } },
]
