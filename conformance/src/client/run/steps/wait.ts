import type { ClientSession } from '../../adapter.ts'
import { evaluateDuration, type Duration } from '../../durations.ts'
import type { FixtureHandle } from '../../fixture.ts'
import type { WaitSpec } from '../../scenario.ts'
import { waitForQuiet } from '../../settle.ts'
import { StepFailed } from '../errors.ts'
import type { RunState } from '../state.ts'

/** The `wait` step: until the condition holds, or a step failure once its timeout passed. */
export async function runWait(run: RunState, wait: WaitSpec): Promise<void> {
  await waitFor(run.session!, run.fixture, observableWait(wait, run.kind), run.scenario.client)
}

/** A client shows no state or log the kit could wait on: those conditions are not waited for. */
function observableWait(wait: WaitSpec, kind: 'bridge' | 'client'): WaitSpec {
  if (kind === 'bridge') return wait
  const { state: _state, log: _log, ...rest } = wait
  return rest
}

/** A duration of the scenario in ms, for the client's config. */
export function durationMs(duration: Duration, config: Record<string, unknown>): number {
  const value = evaluateDuration(duration, config)
  // Validated when the scenario loaded (scenario.ts), so an error here is a harness bug.
  if ('error' in value) throw new Error(value.error)
  return value.ms
}

async function waitFor(session: ClientSession, fixture: FixtureHandle, wait: WaitSpec, config: Record<string, unknown>): Promise<void> {
  if (wait.ms !== undefined) return new Promise((resolve) => setTimeout(resolve, wait.ms))
  if (wait.quiet !== undefined) {
    const quietMs = durationMs(wait.quiet, config)
    if (!(await waitForQuiet(fixture.wireFile, quietMs, quietMs + wait.timeoutMs))) throw new StepFailed(`the wire was never quiet for ${quietMs} ms (quiet: ${wait.quiet}) within ${quietMs + wait.timeoutMs} ms`)
  }
  const holds = () => {
    const raw = session.tools().map((t) => t.rawName).sort()
    if (wait.tools && JSON.stringify(raw) !== JSON.stringify([...wait.tools].sort())) return false
    if (wait.state && session.state() !== wait.state) return false
    if (wait.log && !session.logs().some((line) => new RegExp(wait.log!).test(line))) return false
    if (wait.received && fixture.wire().filter(({ dir, msg }) => dir === 'recv' && (msg as { method?: string }).method === wait.received).length < wait.count) return false
    return true
  }
  if (!(await pollUntil(holds, wait.timeoutMs))) {
    const { timeoutMs, count: _count, ...condition } = wait
    throw new StepFailed(`waited ${timeoutMs} ms for ${JSON.stringify(condition)}; tools ${JSON.stringify(session.tools().map((t) => t.rawName))}, state ${session.state()}`)
  }
}

/**
 * True once `holds()` does, false when `timeoutMs` passed first. Tool changes are evented; states,
 * logs and the wire are polled at a short interval.
 */
export async function pollUntil(holds: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!holds()) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}
