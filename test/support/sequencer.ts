import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Longest files first, so that files running side by side end together instead of one long file
 * starting last and running alone. Vitest knows a file's duration only from an earlier run on
 * this machine: with every duration known (a re-run), it orders by them. A clean clone knows none,
 * and vitest's own order (project names alphabetically, then file size) started the 4-minute
 * package test among the last; there a project's timeout, which says how long its files may
 * take, ranks it (the package installs and the official suite first), then file size.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`
    const durations = new Map(files.map((spec) => [spec, cache.getFileTestResults(key(spec))?.duration]))
    const allKnown = [...durations.values()].every((duration) => duration !== undefined)
    const allowed = (spec: TestSpecification) => Math.max(spec.project.config.testTimeout, spec.project.config.hookTimeout)
    const size = (spec: TestSpecification) => cache.getFileStats(key(spec))?.size ?? 0
    const byGroup = (a: TestSpecification, b: TestSpecification) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder
    const byLength = allKnown
      ? (a: TestSpecification, b: TestSpecification) => durations.get(b)! - durations.get(a)!
      : (a: TestSpecification, b: TestSpecification) => allowed(b) - allowed(a) || size(b) - size(a)
    return [...files].sort((a, b) => byGroup(a, b) || byLength(a, b))
  }
}
