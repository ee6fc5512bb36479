import { readHttpLog } from '@mcp-bridge/fixtures-server'
import { stepLabel } from '../../transcript/timeline.ts'
import { DriverError } from '../driver/channel.ts'
import { reportedProcesses, survivors } from '../processes.ts'
import { SETTLE_SLACK_MS } from '../run-bound.ts'
import { waitForQuiet } from '../settle.ts'
import { checkExpectationsFor } from '../verdicts.ts'
import { NotApplicable, StepFailed } from './errors.ts'
import { startClient, type StartedClient } from './start.ts'
import type { RunState } from './state.ts'
import { runStep } from './steps/index.ts'
import { durationMs } from './steps/wait.ts'

type Duplicate = Awaited<ReturnType<NonNullable<RunState['adapter']['rejectsDuplicate']>>> | undefined

/**
 * The client's part of the run, under the outer bound: started, driven through the steps, settled,
 * its end state judged. Never throws: what goes wrong becomes a check; teardown is the caller's.
 */
export async function drive(run: RunState): Promise<void> {
  try {
    const started = await startClient(run)
    if (!started) return
    const expectsDuplicate = run.scenario.expect.duplicateServerNameRejected !== undefined || run.scenario.expect.duplicateServerNameMessage !== undefined
    const duplicate = expectsDuplicate ? await run.adapter.rejectsDuplicate?.(started.session, started.target, started.client) : undefined
    if ((await runSteps(run)) === 'cut') return
    await settle(run)
    await judgeEndState(run, started, duplicate)
    run.measured.totalMs = Math.round(performance.now() - started.startAt)
  } catch (error) {
    if (error instanceof NotApplicable) run.checks.push({ id: 'applies/scenario', title: 'The scenario applies to this client', status: 'skip', message: `not applicable: ${run.notApplicable}` })
    else run.checks.push({ id: 'harness/run', title: 'The scenario could run', status: 'error', message: error instanceof DriverError ? error.message : ((error as Error).stack ?? String(error)) })
  }
}

/** The scenario's steps in order, each timed; a step that cannot go on fails the run's steps and ends them. */
async function runSteps(run: RunState): Promise<'cut' | void> {
  const { scenario, recorder } = run
  try {
    for (const [stepIndex, step] of scenario.steps.entries()) {
      if (run.cut) return 'cut'
      run.at = `step ${stepIndex + 1} (${stepLabel(step)})`
      recorder.step(stepIndex + 1, stepLabel(step), 'call' in step ? { call: run.callIndex + 1 } : {})
      const stepAt = performance.now()
      const ran = await runStep(run, step, stepIndex)
      // A call that could not reach the server took no time worth judging.
      if (ran !== 'not-reached') run.measured.stepMs[stepIndex] = Math.round(performance.now() - stepAt)
    }
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error
    recorder.stepFailed()
    run.checks.push({ id: 'steps/completed', title: 'Every step ran', status: 'fail', message: error.message, spec: scenario.spec[0] })
  }
}

/** The behaviour's settle window: a late retry or re-list must count against the bounds judged after it. */
async function settle(run: RunState): Promise<void> {
  const { scenario } = run
  if (scenario.settle === undefined || run.disposed) return
  run.at = `the settle window (${scenario.settle})`
  const quietMs = durationMs(scenario.settle, scenario.client)
  const quiet = await waitForQuiet(run.fixture.wireFile, quietMs, quietMs + SETTLE_SLACK_MS)
  run.checks.push({
    id: 'expect/settled',
    title: 'The client settles before its end state is judged',
    status: quiet ? 'pass' : 'fail',
    message: quiet ? `the wire was quiet for ${quietMs} ms (settle: ${scenario.settle})` : `the wire was never quiet for ${quietMs} ms (settle: ${scenario.settle}) within ${quietMs + SETTLE_SLACK_MS} ms`,
    spec: scenario.spec[0],
  })
}

/** The scenario's end-of-run expectations, judged on the client while it still runs. */
async function judgeEndState(run: RunState, { session }: StartedClient, duplicate: Duplicate): Promise<void> {
  const { scenario, fixture, transport } = run
  run.at = 'the end-of-run expectations'
  run.recorder.step(scenario.steps.length + 1, 'expectations judged, the client disposed, invariants', { end: true })
  if (run.disposed) {
    run.checks.push({ id: 'expect/end-state', title: 'End-of-run expectations', status: 'skip', message: 'the scenario disposed the client in a step, so there is no end state to judge', spec: scenario.spec[0] })
    return
  }
  run.events.push({ kind: 'tools', tools: session.tools() })
  run.checks.push(
    ...checkExpectationsFor(scenario, run.kind, {
      tools: session.tools(),
      logs: session.logs(),
      state: session.state(),
      wire: fixture.wire(),
      attachments: session.attachmentCount(),
      duplicateRejected: duplicate?.rejected,
      duplicateMessage: duplicate?.message,
      http: transport === 'http' ? readHttpLog(fixture.wireFile) : undefined,
      // A server whose stdin the client has just closed is given a moment to exit (survivors()):
      // one that is on its way out is not one the client keeps running.
      // The client's own view counts too: a server still starting has not reported itself yet.
      serversRunning:
        transport === 'stdio' && scenario.expect.running !== undefined ? await survivors([...new Set([...reportedProcesses(fixture.wireFile).servers, ...session.pids()])]) : undefined,
    }),
  )
}
