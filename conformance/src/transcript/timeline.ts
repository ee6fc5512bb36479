/**
 * Pure: a scenario run's timeline for the report's sequence diagram. The runner observed it (wire
 * entries with the time it saw them, its own steps, the server's processes, the client's log);
 * this merges it into one ordered, bounded list, with messages normalised as in the text
 * transcript so that ids read c1/s1 in both.
 */
import { beyondAsk } from '../client/beyond-ask.ts'
import type { ScenarioStep } from '../client/scenario.ts'
import type { RunTranscript, TimelineEvent } from '../model.ts'
import { excerpt } from '../server/check.ts'
import { normalizeWire, type WireMessage } from './normalize.ts'

export type Mark = Exclude<TimelineEvent, { kind: 'message' | 'omitted' }>

/** A wire entry with when the runner saw it (ms since the run started). */
export type SeenWire = WireMessage & { at: number; kind: 'wire' }

/** Everything the runner saw, in the order it saw it: wire entries, its steps, processes, log lines. */
export type Observed = Array<SeenWire | Mark>

/** Bounds: a storm of notifications or an oversized result must not swell results.json. */
export const LIMITS = { events: 600, textLines: 2_000, lineChars: 2_000 }
const MESSAGE_LIMITS = { string: 600, array: 40, keys: 60, depth: 10 }

/**
 * The observation order is the event order: the runner reads the wire log before it records a
 * step, so a message seen in the same millisecond as a step still comes before it.
 */
export function buildTranscript(observed: Observed, text: string, transport: 'stdio' | 'http'): RunTranscript {
  const wire = observed.filter((item): item is SeenWire => item.kind === 'wire')
  const normalized = new Map(normalizeWire(wire).map((entry, i) => [wire[i], entry]))
  const events: TimelineEvent[] = []
  for (const item of observed) {
    if (item.kind !== 'wire') {
      events.push(item)
      continue
    }
    const { dir, msg } = normalized.get(item)!
    // A stdio fixture is one process per connection: each initialize it receives is a new process,
    // which the client only reports (pid and all) once the handshake is over.
    if (transport === 'stdio' && dir === 'recv' && (msg as { method?: unknown }).method === 'initialize') {
      events.push({ at: item.at, kind: 'process', what: 'start', text: 'server process started' })
    }
    events.push({ at: item.at, kind: 'message', from: dir === 'recv' ? 'client' : 'server', message: excerpt(msg, MESSAGE_LIMITS) })
  }
  return { text: boundText(text), events: boundEvents(events) }
}

/** Keeps every phase, and the first two thirds and last third of everything else, with a marker for the gap. */
export function boundEvents(events: TimelineEvent[], max = LIMITS.events): TimelineEvent[] {
  const others = events.filter((e) => e.kind !== 'step')
  if (others.length <= max) return events
  const head = Math.ceil((max * 2) / 3)
  const dropped = new Set<TimelineEvent>(others.slice(head, others.length - (max - head)))
  const out: TimelineEvent[] = []
  for (const event of events) {
    if (!dropped.has(event)) out.push(event)
    else if (out.at(-1)?.kind !== 'omitted') out.push({ at: event.at, kind: 'omitted', count: dropped.size })
  }
  return out
}

function boundText(text: string): string {
  const lines = text.split('\n')
  const kept = lines.slice(0, LIMITS.textLines).map((line) => (line.length <= LIMITS.lineChars ? line : `${line.slice(0, LIMITS.lineChars)}… [${line.length - LIMITS.lineChars} more characters]`))
  if (lines.length > LIMITS.textLines) kept.push(`… [${lines.length - LIMITS.textLines} more lines]`)
  return kept.join('\n')
}

/** How a step reads in the diagram: what the runner did, in a few words. */
export function stepLabel(step: ScenarioStep): string {
  if ('call' in step) return `call ${step.call.tool}${step.call.abortAfterMs !== undefined ? `, abort after ${step.call.abortAfterMs} ms` : ''}`
  if ('wait' in step) return `wait for ${waitLabel(step.wait)}`
  if ('kill' in step) return 'kill the server, as a crash would'
  if ('restart' in step) return 'restart the server'
  if ('expectTools' in step) return `expect tools [${step.expectTools.join(', ')}]`
  if ('squat' in step) return `another plugin registers ${step.squat}`
  if ('dispose' in step) return 'dispose the client'
  if ('setRoots' in step) return `change the client's roots to ${step.setRoots.roots.map((root) => root.uri).join(', ')}`
  const { ask } = beyondAsk(step)
  return `ask the client: ${ask.op}${'uri' in ask ? ` ${ask.uri}` : 'name' in ask ? ` ${ask.name}` : ''}`
}

function waitLabel(wait: Extract<ScenarioStep, { wait: unknown }>['wait']): string {
  const parts = [
    wait.tools && `tools [${wait.tools.join(', ')}]`,
    wait.state && `state ${wait.state}`,
    wait.log && `a log line /${wait.log}/`,
    wait.received && `${wait.count > 1 ? `${wait.count}× ` : ''}${wait.received} received`,
    wait.ms !== undefined && `${wait.ms} ms`,
  ].filter(Boolean)
  return parts.join(' and ') || 'nothing'
}
