import type { SuiteResult } from '../../model.ts'
import { redactSuite } from '../../report/redact.ts'
import { buildTranscript } from '../../transcript/timeline.ts'
import { clientEras } from '../eras.ts'
import type { Revision } from '../../server/spec.ts'
import type { TimelineRecorder } from '../timeline.ts'
import { verdictsFor } from '../verdicts.ts'
import type { RunState } from './state.ts'
import { transcriptText } from './transcript.ts'

/**
 * The run's result as the report shows it: verdicts for this kind of client, the eras it spoke,
 * the transcript for the report's diagram; redacted as a whole, the transcript included.
 */
export function assembleSuite(run: RunState, observed: ReturnType<TimelineRecorder['stop']>, revision: Revision, startedAt: number): SuiteResult {
  const { scenario, fixture, session, era, transport } = run
  const spoke = session ? clientEras(fixture.wire()) : []
  const text = session ? transcriptText(run, fixture.wire()) : ''
  const transcript = buildTranscript(observed, text, transport)
  fixture.removeFiles()
  // A client is judged only on what holds for every MCP client: the rest is a skip that says why.
  const judged = verdictsFor(scenario, run.kind, run.checks, revision)
  return redactSuite(
    {
      id: scenario.id,
      title: scenario.title,
      kind: 'client',
      target: run.adapter.name,
      transport,
      ...(era !== 'legacy' && { era }),
      ...(spoke.length > 0 && { spoke }),
      checks: judged,
      durationMs: Math.round(performance.now() - startedAt),
      transcript,
    },
    run.redact,
  )
}
