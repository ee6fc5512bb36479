import { join, dirname } from 'node:path'
import type { CheckResult } from '../../model.ts'
import { formatModelTranscript, formatWireTranscript } from '../../transcript/format.ts'
import { compareSnapshot } from '../snapshot.ts'
import type { RunState } from './state.ts'

type Wire = Parameters<typeof formatWireTranscript>[0]

/** Wire messages a transcript shows at most (no snapshot comes near it). */
const MAX_TRANSCRIPT_WIRE = 5000

/** The run's transcript against its committed snapshot (or written anew when snapshots are updated). */
export function snapshotCheck(run: RunState, wire: Wire): CheckResult {
  const { file, scenario, label } = run
  // Snapshots are committed files: a secret the server echoed must not land in the repository.
  return compareSnapshot(join(dirname(file), `${scenario.id}.${label}.snap`), run.redact(transcriptText(run, wire)), run.options.updateSnapshots)
}

/** The run's transcript as the snapshot file holds it, before redaction. */
export function transcriptText({ scenario, label, events }: RunState, wire: Wire): string {
  const sections = [`# ${scenario.id} over ${label}`, '', '## what the model sees', formatModelTranscript(events)]
  // Bounded like the timeline: a runaway client's millionth request adds nothing but minutes.
  const shown = wire.length > MAX_TRANSCRIPT_WIRE ? wire.slice(0, MAX_TRANSCRIPT_WIRE) : wire
  const more = wire.length > shown.length ? `(${wire.length - shown.length} more messages not shown)\n` : ''
  sections.push('## wire', scenario.transcript.wire ? formatWireTranscript(shown) + more : `(not recorded: ${scenario.transcript.reason ?? 'not deterministic'})\n`)
  return sections.join('\n')
}
