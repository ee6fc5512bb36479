import { readHttpLog } from '@mcp-bridge/fixtures-server'
import type { ClientSession, ServerTarget } from '../adapter.ts'
import { scenarioNotApplicable } from '../applicability.ts'
import { DriverError } from '../driver/channel.ts'
import type { FixtureHandle } from '../fixture.ts'
import { reportedProcesses } from '../processes.ts'
import { resolveTargetRefs } from '../target-refs.ts'
import { NotApplicable } from './errors.ts'
import type { RunState } from './state.ts'

/** A client started against the fixture: what it was started with, and when (for the run's total time). */
export interface StartedClient {
  session: ClientSession
  target: ServerTarget
  client: Record<string, unknown>
  startAt: number
}

/**
 * Starts the client against the fixture and begins watching it. Undefined when the run was cut
 * short meanwhile; throws NotApplicable when the client's declared features rule the scenario out.
 */
export async function startClient(run: RunState): Promise<StartedClient | undefined> {
  const { adapter, fixture, scenario } = run
  run.recorder.step(0, 'the client starts')
  const target = await fixture.target()
  // `{fixture.origin}` in the config (an OAuth issuer) is the fixture's, known only once it listens.
  const client = resolveTargetRefs(scenario.client, target)
  const startAt = performance.now()
  const session = await adapter.start(target, client)
  // A start that returned after the run was cut short: nothing will judge it, so it ends here.
  if (run.cut) return void (await session.dispose().catch(() => {}))
  run.session = session
  run.measured.startMs = Math.round(performance.now() - startAt)
  // A driver that never answered connect, while its client never reached the fixture, never
  // drove anything: a harness problem. One that reached it and hung there is the client's.
  if (session.connectUnanswered?.() && !fixtureReached(fixture)) throw new DriverError(`the driver never answered "connect" and its client never reached the server: ${session.logs().at(-1) ?? ''}`)
  run.observer.watch(session)
  run.recorder.watch(session)
  run.events.push({ kind: 'tools', tools: session.tools() })
  run.offeredAtStart = new Set(session.tools().map((tool) => tool.rawName))
  // Known only once connected: a driver declares what its client does in its connect answer.
  run.notApplicable = scenarioNotApplicable(scenario, run.kind, session.features?.() ?? [])
  if (run.notApplicable) throw new NotApplicable()
  return { session, target, client, startAt }
}

/** Whether the client reached the fixture at all: a message, an HTTP request or a server process. */
function fixtureReached(fixture: FixtureHandle): boolean {
  return fixture.wire().length > 0 || readHttpLog(fixture.wireFile).length > 0 || reportedProcesses(fixture.wireFile).servers.length > 0
}
