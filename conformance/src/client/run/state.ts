import { configSecrets, createRedactor, type Redact } from '@mcp-bridge/process'
import { runLabel, type CheckResult } from '../../model.ts'
import type { ModelEvent } from '../../transcript/format.ts'
import type { ClientAdapter, ClientSession, ToolView } from '../adapter.ts'
import type { RunEra } from '../eras.ts'
import { FixtureHandle } from '../fixture.ts'
import type { LoadedScenario } from '../load.ts'
import { Observer } from '../observe.ts'
import type { Scenario } from '../scenario.ts'
import { TimelineRecorder } from '../timeline.ts'
import type { Measured } from '../timing.ts'

export interface RunOptions {
  updateSnapshots: boolean
  /** The fixture's protocol era for this run (one of the scenario's `eras`); legacy by default. */
  era?: RunEra
  /** Replaces the outer bound derived from the scenario (run-bound.ts); for the kit's own tests. */
  outerBoundMs?: number
}

/**
 * What one scenario run knows as it goes: the fixture, the client's session once started, and the
 * evidence gathered so far (checks, the model's view, times). One object, so each step kind and
 * each stage of the run is a function of it rather than a closure over a long function's locals.
 */
export class RunState {
  readonly file: string
  readonly scenario: Scenario
  readonly era: RunEra
  /** The run's name in messages and files: the transport, and the era when it is not legacy. */
  readonly label: string
  readonly kind: 'bridge' | 'client'
  readonly fixture: FixtureHandle
  /** Checks, wire excerpts and snapshots never show what the scenario configured as a secret. */
  readonly redact: Redact
  readonly observer = new Observer()
  readonly recorder: TimelineRecorder
  readonly checks: CheckResult[] = []
  readonly events: ModelEvent[] = []
  /** Time is evidence: the start, each step and the whole run, on the runner's monotonic clock. */
  readonly measured: Measured = { stepMs: [] }
  session: ClientSession | undefined
  disposed = false
  notApplicable: string | undefined
  offeredAtStart = new Set<string>()
  callIndex = 0
  /** Where the run is, for the message of a run cut short by its outer bound. */
  at = 'the client start'
  /** Set once the outer bound cut the run short: a client start or step still under way stops there. */
  cut = false
  /** Whether the HTTP server was down when the client closed (a DELETE is then owed to no one). */
  serverGone = false

  constructor(
    { file, scenario }: LoadedScenario,
    readonly transport: 'stdio' | 'http',
    readonly adapter: ClientAdapter,
    readonly options: RunOptions,
  ) {
    this.file = file
    this.scenario = scenario
    this.era = options.era ?? 'legacy'
    this.label = runLabel(transport, this.era)
    this.fixture = new FixtureHandle(scenario.server, transport, this.era)
    this.redact = scenarioRedactor(scenario)
    this.recorder = new TimelineRecorder(this.fixture.wireFile)
    this.fixture.onLifecycle = (what, text) => {
      this.serverGone = what === 'exit'
      this.recorder.process(what, text)
    }
    this.kind = adapter.kind ?? 'bridge'
  }

  /** Disposes the client once (a `dispose` step, then teardown): the tools it shows after. */
  async dispose(): Promise<ToolView[]> {
    const session = this.session
    if (!session || this.disposed) return session?.tools() ?? []
    this.disposed = true
    this.observer.sample(session)
    this.observer.stop()
    await session.dispose()
    return session.tools()
  }
}

/** The scenario's configured secrets (client headers and env, the host environment it plants) and every secret shape. */
function scenarioRedactor(scenario: Scenario): Redact {
  const client = scenario.client as { headers?: Record<string, string>; env?: Record<string, string>; url?: string }
  return createRedactor([...configSecrets(client), ...Object.values(scenario.hostEnv)])
}
