/**
 * Pure: every target a benchmark declares is reported on every run. One it did not report (it
 * threw, or a limit cut it short before the figure existed) or reported undecided is shown as
 * not measured, with the reason, and fails the run like a benchmark that could not run: a table
 * with a silent gap reads as if everything that was measured held.
 */
import type { Target } from './model.ts'

export interface Unmeasured {
  id: string
  reason: string
}

export function accountTargets(declared: readonly string[], reported: readonly Target[], failure?: string): { targets: Target[]; unmeasured: Unmeasured[] } {
  const unmeasured: Unmeasured[] = []
  const targets = declared.map((id): Target => {
    const target = reported.find((t) => t.id === id)
    if (!target) {
      unmeasured.push({ id, reason: failure === undefined ? 'the benchmark did not report it' : `the benchmark failed: ${failure}` })
      return { id, description: 'not measured', measured: null, limit: null, unit: '', holds: null }
    }
    if (target.holds === null || target.measured === null) unmeasured.push({ id, reason: `no figure to judge (${target.description})` })
    return target
  })
  // A target the benchmark reports but does not declare would go missing unnoticed once it stops being reported.
  for (const target of reported) {
    if (!declared.includes(target.id)) {
      unmeasured.push({ id: target.id, reason: 'reported but not declared in the benchmark’s targets' })
      targets.push(target)
    }
  }
  return { targets, unmeasured }
}
