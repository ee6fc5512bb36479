import { withinDeadline } from '@mcp-bridge/process'
import type { ToolView } from '../adapter.ts'
import { describeProcess, killWithGroups } from '../driver/processes.ts'
import { reportedProcesses, survivors, type ReportedProcesses } from '../processes.ts'
import { HARNESS_MS, type RunBound } from '../run-bound.ts'
import type { RunState } from './state.ts'

/** What teardown found, for the end-of-run judging. */
export interface TornDown {
  /** The tools the client showed once disposed. */
  afterDispose: ToolView[]
  /** Whether the HTTP server was down when the client closed. */
  goneAtClose: boolean
  reported: ReportedProcesses
  /** Every server process the client started, as each reported itself, its children included. */
  known: number[]
  /** Those still running once the client was disposed (now stopped). */
  orphans: number[]
  /** The processes the driver's tree left beyond those, described (now stopped). */
  leftoverNames: string[]
}

/** Always runs, cut short or not: the client disposed, the fixture closed, every process left behind found and stopped. */
export async function tearDown(run: RunState, bound: RunBound): Promise<TornDown> {
  const afterDispose = await disposeClient(run, bound)
  const goneAtClose = run.serverGone
  await withinDeadline(run.fixture.close().catch(() => {}), HARNESS_MS)
  return { afterDispose, goneAtClose, ...(await stopLeftProcesses(run)) }
}

/** Bounded too: a dispose that never ends must not hold the run (nor the next one) either. */
async function disposeClient(run: RunState, bound: RunBound): Promise<ToolView[]> {
  const { session, scenario } = run
  const disposeAt = performance.now()
  const disposedInStep = run.disposed
  const disposing = session ? await withinDeadline(run.dispose().catch(() => []), bound.disposeMs) : { value: [] }
  if (!disposing) run.checks.push({ id: 'harness/bound', title: 'The client is disposed within its bound', status: 'error', message: `scenario ${scenario.id} [${run.label}]: the client's dispose did not end within ${bound.disposeMs} ms; its processes were stopped` })
  if (session && !disposedInStep) {
    run.measured.disposeMs = session.closeMs?.() ?? Math.round(performance.now() - disposeAt)
    if (session.closeFinished?.() === false) run.measured.disposeUnfinished = true
  }
  return disposing?.value ?? []
}

/** The processes the run left running, judged by the caller; stopped here with their groups, so no run leaves a process behind. */
async function stopLeftProcesses(run: RunState): Promise<Pick<TornDown, 'reported' | 'known' | 'orphans' | 'leftoverNames'>> {
  const { session } = run
  const reported = reportedProcesses(run.fixture.wireFile)
  const known = [...new Set([...run.observer.pids, ...reported.servers, ...reported.children])]
  const orphans = [...new Set([...(await survivors(known)), ...(session?.orphans?.() ?? [])])]
  // Left by the driver's tree beyond the servers judged here (a process it started in a new session).
  const leftovers = (session?.leftovers?.() ?? []).filter((pid) => !orphans.includes(pid) && !known.includes(pid))
  const leftoverNames = leftovers.map(describeProcess)
  killWithGroups([...orphans, ...leftovers])
  // SIGKILL lands at once, the exit a moment later: the run ends once they are gone (bounded at 1 s).
  await survivors([...orphans, ...leftovers])
  return { reported, known, orphans, leftoverNames }
}
