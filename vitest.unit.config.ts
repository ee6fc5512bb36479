import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import base from './vitest.config.ts'

/**
 * The fast tier (`npm run test:unit`): each workspace's pure-logic tests, with no child processes,
 * sockets or package installs (test/unit/guard.ts fails a listed test that starts one), run from
 * the sources without a build. `npm test` runs these and every other test, and stays what CI runs.
 * Left out although pure: process/test/redact-linear.test.ts, which measures CPU-time ratios over
 * 100k-character inputs (most of this tier's time on its own).
 */
const pure = {
  repo: ['test/repo/import-circles.test.ts'],
  process: ['abort-listeners', 'deadline', 'json-equal', 'json-size', 'parse-json', 'readers.property', 'redact', 'shared-pieces', 'streams'],
  plugin: [
    'abort-scope', 'auth-renewal', 'config', 'config-error-secrets', 'config-schema', 'discovery', 'elicitation-form', 'env', 'host-contracts',
    'json-rpc-message', 'line-reader', 'log', 'model-route', 'naming', 'projection', 'readers.property',
    'request-failure', 'schema-subset', 'schema-violations', 'tool-set',
  ],
  host: ['cli-args', 'cli-format', 'loader-diff', 'loader-parse', 'loader-references', 'loader-watch'],
  'fixtures-server': ['era-log-level', 'units', 'wire-log.property'],
  conformance: [
    'cli-readme', 'client-format', 'client-guarantees', 'client-invariants', 'client-keywords', 'client-timing', 'clients-table',
    'http-log-judging', 'oauth-expectations', 'report-baseline', 'report-compare', 'report-diagram', 'report-format', 'report-timeline',
    'scenario-timing', 'server-binary-encoding', 'server-checks-doc', 'server-cli-controls', 'server-evaluate', 'server-http-verdicts', 'server-modern-detect', 'server-sentences',
    'server-settle', 'task-negotiation', 'task-status-trail', 'transcript-normalize',
  ],
}

/** A listed file that is gone (moved, renamed) would silently leave the tier: say which at once. */
const files = (workspace: string, names: string[]) => {
  const paths = workspace === 'repo' ? names : names.map((name) => `${workspace}/test/${name}.test.ts`)
  const missing = paths.filter((path) => !existsSync(fileURLToPath(new URL(path, import.meta.url))))
  if (missing.length > 0) throw new Error(`vitest.unit.config.ts lists files that do not exist (${missing.join(', ')}): move each entry to where its test now is`)
  return paths
}

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    reporters: ['default'],
    // Files share their worker's modules: importing the plugin, the kit and the SDK was most of
    // this tier's time (70 s of 100 s), and these tests leave no global state behind (a test that
    // did would show here first; `npm test` keeps every file isolated).
    isolate: false,
    // One project, not one per workspace: vitest reuses a worker only within a project, so six
    // projects imported the plugin, the kit and the SDK again in each (twice the CPU time).
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: Object.entries(pure).flatMap(([workspace, names]) => files(workspace, names)), setupFiles: ['test/unit/guard.ts'], testTimeout: 30_000, expect: { poll: { timeout: 15_000 } } },
      },
    ],
  },
})
