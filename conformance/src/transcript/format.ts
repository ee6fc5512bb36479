import type { CallOutcome, ToolView } from '../client/adapter.ts'
import { collapseRuns, normalizeText, normalizeValue, normalizeWire, type WireMessage } from './normalize.ts'

/** One thing the model saw: the tool list at a point, or a call and what came back. */
export type ModelEvent =
  | { kind: 'tools'; tools: ToolView[] }
  | { kind: 'call'; tool: string; publicName: string; args: unknown; outcome: CallOutcome }
  | { kind: 'note'; text: string }

/** Pure: the model-facing transcript as stable, reviewable text. */
export function formatModelTranscript(events: ModelEvent[]): string {
  const lines: string[] = []
  for (const event of events) {
    if (event.kind === 'note') lines.push(`# ${event.text}`)
    if (event.kind === 'tools') {
      lines.push(`tools (${event.tools.length}):`)
      for (const tool of [...event.tools].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        lines.push(`  ${tool.name}  <- ${JSON.stringify(tool.rawName)}`)
        if (tool.description) lines.push(`    description: ${JSON.stringify(normalizeText(tool.description))}`)
        lines.push(`    parameters: ${JSON.stringify(normalizeValue(tool.parameters))}`)
      }
    }
    if (event.kind === 'call') {
      lines.push(`call ${event.publicName} ${JSON.stringify(normalizeValue(event.args))}`)
      const { outcome } = event
      lines.push(outcome.isError ? `  error ${outcome.code ?? ''}` : '  ok')
      for (const block of outcome.content) {
        lines.push(block.type === 'text' ? `  | ${normalizeText(block.text).split('\n').join('\n  | ')}` : `  [image ${block.ref}]`)
      }
    }
  }
  return `${lines.join('\n')}\n`
}

/** Pure: the wire transcript, one normalised JSON-RPC message per line; `n×` marks a run of one notification. */
export function formatWireTranscript(entries: WireMessage[]): string {
  return `${collapseRuns(normalizeWire(entries))
    .map(({ dir, msg, repeated }) => `${dir === 'recv' ? 'client -> server' : 'server -> client'} ${repeated ? 'n× ' : ''}${JSON.stringify(msg)}`)
    .join('\n')}\n`
}
