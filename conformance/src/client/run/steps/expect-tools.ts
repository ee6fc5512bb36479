import type { RunState } from '../state.ts'

/** The `expectTools` step: the tools the client shows at this point, judged at once. */
export function runExpectTools(run: RunState, expected: string[], stepNumber: number): void {
  const raw = run.session!.tools().map((t) => t.rawName).sort()
  const wanted = [...expected].sort()
  const same = JSON.stringify(raw) === JSON.stringify(wanted)
  run.checks.push({
    id: `expect/tools-at-step-${stepNumber}`,
    title: 'The client exposes the expected tools at this step',
    status: same ? 'pass' : 'fail',
    message: same ? `${raw.length} tools as expected` : `expected ${JSON.stringify(wanted)}, got ${JSON.stringify(raw)}`,
    spec: run.scenario.spec[0],
  })
}
