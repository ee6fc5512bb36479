/**
 * Pure: a scenario run's timeline as an inline SVG sequence diagram: a client lane and a server
 * lane, one row per event with its time since the run started, and the steps that failed
 * highlighted. It needs no script and no external asset, so the page's CSP stays as strict as it
 * is; the colours come from the page's style sheet through class names. Everything in a
 * timeline came from a server or a client, so every string is escaped and cut to fit its row.
 */
import type { CheckResult, RunTranscript, TimelineEvent } from '../model.ts'
import { escapeHtml } from './escape.ts'
import { toneOf, type Tone } from './overview.ts'

const WIDTH = 900
const GUTTER = 64
const CLIENT_X = 230
const SERVER_X = 780
const TOP = 52
const ROW = 24
/** Monospace 11 px: what fits where is counted in characters. */
const CHAR_PX = 6.7
const MAX_ROWS = 400
const TITLE_CHARS = 1_000

export interface DiagramInput {
  transcript: RunTranscript
  checks: CheckResult[]
  /** Prefix of the ids in the diagram (anchors of its steps), unique in the page. */
  id: string
  client: string
  server: string
}

/** A failing check and the step it is about. */
export interface StepFailure {
  step: number
  text: string
  check: CheckResult
  tone: Tone
}

type Step = Extract<TimelineEvent, { kind: 'step' }>
type Row =
  | { kind: 'step'; at: number; step: Step; failures: StepFailure[] }
  | { kind: 'message'; at: number; from: 'client' | 'server'; type: MessageType; label: string; title: string; times: number }
  | { kind: 'process'; at: number; text: string; what: 'start' | 'exit' }
  | { kind: 'log'; at: number; text: string; times: number }
  | { kind: 'gap'; at: number; text: string }

type MessageType = 'request' | 'response' | 'notification' | 'error' | 'cancel'

/** Which step a failing check is about: its call or step number, the step that stopped, or the end of the run. */
export function failuresByStep(events: TimelineEvent[], checks: CheckResult[]): StepFailure[] {
  const steps = events.filter((e): e is Step => e.kind === 'step')
  const end = steps.find((s) => s.end) ?? steps.at(-1)
  const out: StepFailure[] = []
  for (const check of checks) {
    const tone = toneOf(check)
    if (tone !== 'fail' && tone !== 'error' && tone !== 'expected') continue
    const call = /^expect\/call-(\d+)$/.exec(check.id)?.[1]
    const numbered = /^expect\/tools-at-step-(\d+)$/.exec(check.id)?.[1]
    const step =
      call !== undefined ? steps.find((s) => s.call === Number(call))
      : numbered !== undefined ? steps.find((s) => s.step === Number(numbered))
      : check.id === 'steps/completed' ? steps.find((s) => s.failed)
      : check.id === 'harness/run' ? steps.at(-1)
      : end
    const at = step ?? end
    if (at) out.push({ step: at.step, text: at.text, check, tone })
  }
  return out
}

export function formatDiagram(input: DiagramInput): string {
  const failures = failuresByStep(input.transcript.events, input.checks)
  const rows = toRows(input.transcript.events, failures)
  const height = TOP + rows.length * ROW + 12
  const body = [...bands(rows, input.id), ...rows.map((row, i) => formatRow(row, TOP + i * ROW, input.id))]
  return `<svg class="seq" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeHtml(`Sequence diagram: ${cut(input.client, 60)} and ${cut(input.server, 60)}`)}">
${lanes(input, height)}
${body.join('\n')}
</svg>`
}

function toRows(events: TimelineEvent[], failures: StepFailure[]): Row[] {
  const rows: Row[] = []
  for (const event of events) {
    const last = rows.at(-1)
    if (event.kind === 'step') rows.push({ kind: 'step', at: event.at, step: event, failures: failures.filter((f) => f.step === event.step) })
    else if (event.kind === 'process') rows.push({ kind: 'process', at: event.at, text: event.text, what: event.what })
    else if (event.kind === 'omitted') rows.push({ kind: 'gap', at: event.at, text: `… ${event.count} events left out here; the text transcript has them all …` })
    else if (event.kind === 'log') {
      // A client repeating itself is one row with a count.
      if (last?.kind === 'log' && last.text === event.text) last.times++
      else rows.push({ kind: 'log', at: event.at, text: event.text, times: 1 })
    } else {
      const { type, label } = describe(event.message)
      // A notification storm is one row with a count; requests and answers keep their ids.
      if (type === 'notification' && last?.kind === 'message' && last.type === type && last.from === event.from && last.label === label) last.times++
      else rows.push({ kind: 'message', at: event.at, from: event.from, type, label, title: cut(JSON.stringify(event.message) ?? '', TITLE_CHARS), times: 1 })
    }
  }
  if (rows.length <= MAX_ROWS) return rows
  // Keep the steps that failed visible even when the rows run out.
  const kept = rows.slice(0, MAX_ROWS)
  kept.push({ kind: 'gap', at: rows[MAX_ROWS]!.at, text: `… ${rows.length - MAX_ROWS} more rows; the text transcript has them all …` })
  for (const row of rows.slice(MAX_ROWS)) if (row.kind === 'step' && row.failures.length) kept.push(row)
  return kept
}

/** What a message is, in a few words: method and id, or the answer's id and gist. */
export function describe(message: unknown): { type: MessageType; label: string } {
  const m = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>
  const id = 'id' in m ? ` ${show(m.id)}` : ''
  const params = (typeof m.params === 'object' && m.params !== null ? m.params : {}) as Record<string, unknown>
  if (typeof m.method === 'string') {
    if (m.method === 'notifications/cancelled') {
      return { type: 'cancel', label: `✕ cancel ${show(params.requestId)}${typeof params.reason === 'string' ? ` (${params.reason})` : ''}` }
    }
    const tool = m.method === 'tools/call' && typeof params.name === 'string' ? ` ${params.name}` : ''
    return { type: 'id' in m ? 'request' : 'notification', label: `${m.method}${id}${tool}` }
  }
  if (typeof m.error === 'object' && m.error !== null) {
    const error = m.error as Record<string, unknown>
    return { type: 'error', label: `error${id} ${show(error.code)} ${typeof error.message === 'string' ? error.message : ''}`.trimEnd() }
  }
  const result = (typeof m.result === 'object' && m.result !== null ? m.result : {}) as Record<string, unknown>
  const gist = [Array.isArray(result.tools) ? `${result.tools.length} tool${result.tools.length === 1 ? '' : 's'}` : '', result.isError === true ? 'isError' : '', typeof result.nextCursor === 'string' ? 'more pages' : '']
  return { type: 'response', label: `result${id}${gist.filter(Boolean).map((g) => ` · ${g}`).join('')}` }
}

function lanes(input: DiagramInput, height: number): string {
  const head = (x: number, name: string, cls: string) =>
    `<g class="lane ${cls}"><rect x="${x - 110}" y="6" width="220" height="26" rx="5"/><text x="${x}" y="23" text-anchor="middle">${escapeHtml(cut(name, 30))}</text></g>`
  return [
    `<text class="time head" x="${GUTTER - 6}" y="23">time</text>`,
    head(CLIENT_X, input.client, 'client'),
    head(SERVER_X, input.server, 'server'),
    `<line class="lifeline" x1="${CLIENT_X}" y1="32" x2="${CLIENT_X}" y2="${height - 6}"/>`,
    `<line class="lifeline" x1="${SERVER_X}" y1="32" x2="${SERVER_X}" y2="${height - 6}"/>`,
  ].join('\n')
}

/** Behind the rows: each step's band, from its row to the next step's; a failed one stands out. */
function bands(rows: Row[], id: string): string[] {
  const out: string[] = []
  rows.forEach((row, i) => {
    if (row.kind !== 'step' || row.failures.length === 0) return
    const next = rows.findIndex((r, j) => j > i && r.kind === 'step')
    const end = next === -1 ? rows.length : next
    const tone = worstOf(row.failures)
    out.push(`<rect class="band ${tone}" data-band="${escapeHtml(`${id}-step-${row.step.step}`)}" x="2" y="${TOP + i * ROW}" width="${WIDTH - 4}" height="${(end - i) * ROW}" rx="4"/>`)
  })
  return out
}

function formatRow(row: Row, top: number, id: string): string {
  const time = `<text class="time" x="${GUTTER - 6}" y="${top + 16}">${formatTime(row.at)}</text>`
  if (row.kind === 'step') return formatStep(row, top, id, time)
  if (row.kind === 'gap') return `<g class="gap">${time}<text x="${(CLIENT_X + SERVER_X) / 2}" y="${top + 16}" text-anchor="middle">${escapeHtml(row.text)}</text></g>`
  if (row.kind === 'process') {
    const marker = row.what === 'start' ? `<path d="M${SERVER_X - 6} ${top + 6}l12 6-12 6z"/>` : `<rect x="${SERVER_X - 6}" y="${top + 6}" width="12" height="12"/>`
    const text = `<text x="${SERVER_X - 12}" y="${top + 16}" text-anchor="end">${escapeHtml(cut(row.text, fit(SERVER_X - CLIENT_X - 30)))}</text>`
    return `<g class="proc ${row.what}">${time}${marker}${text}<title>${escapeHtml(row.text)}</title></g>`
  }
  if (row.kind === 'log') {
    const label = `${row.text}${row.times > 1 ? ` ×${row.times}` : ''}`
    return `<g class="log">${time}<circle cx="${CLIENT_X}" cy="${top + 12}" r="4"/><text x="${CLIENT_X + 10}" y="${top + 16}">${escapeHtml(cut(label, fit(SERVER_X - CLIENT_X - 20)))}</text><title>${escapeHtml(cut(row.text, TITLE_CHARS))}</title></g>`
  }
  const [x1, x2] = row.from === 'client' ? [CLIENT_X, SERVER_X] : [SERVER_X, CLIENT_X]
  const y = top + 18
  const tip = x2 > x1 ? -8 : 8
  const label = `${row.label}${row.times > 1 ? ` ×${row.times}` : ''}`
  return `<g class="msg ${row.type}">${time}<line x1="${x1}" y1="${y}" x2="${x2 + tip}" y2="${y}"/><path d="M${x2} ${y}l${tip} -4v8z"/><text x="${(x1 + x2) / 2}" y="${top + 13}" text-anchor="middle">${escapeHtml(cut(label, fit(SERVER_X - CLIENT_X - 24)))}</text><title>${escapeHtml(row.title)}</title></g>`
}

function formatStep(row: Extract<Row, { kind: 'step' }>, top: number, id: string, time: string): string {
  const { step } = row.step
  const name = row.step.end ? 'End' : step === 0 ? 'Start' : `Step ${step}`
  const failed = row.failures.length > 0
  const checks = row.failures.map((f) => f.check.id)
  const mark = failed ? `${worstOf(row.failures) === 'expected' ? '!' : '✗'} ` : ''
  const label = `${mark}${name} · ${row.step.text}${failed ? ` — ${checks.join(', ')}` : ''}`
  const title = failed ? row.failures.map((f) => `${f.check.id} (${f.tone}): ${f.check.message}`).join('\n') : row.step.text
  const attributes = failed ? ` data-failed="${escapeHtml(checks.join(' '))}"` : ''
  return `<g class="step${failed ? ` failed ${worstOf(row.failures)}` : ''}" id="${escapeHtml(`${id}-step-${step}`)}"${attributes}>${time}<rect class="bar" x="${GUTTER}" y="${top + 3}" width="${WIDTH - GUTTER - 6}" height="${ROW - 5}" rx="3"/><text x="${GUTTER + 8}" y="${top + 16}">${escapeHtml(cut(label, fit(WIDTH - GUTTER - 20)))}</text><title>${escapeHtml(cut(title, TITLE_CHARS))}</title></g>`
}

function worstOf(failures: StepFailure[]): Tone {
  return failures.some((f) => f.tone === 'error') ? 'error' : failures.some((f) => f.tone === 'fail') ? 'fail' : 'expected'
}

export function formatTime(ms: number): string {
  return ms < 10_000 ? `+${Math.round(ms)} ms` : `+${(ms / 1000).toFixed(1)} s`
}

const fit = (px: number) => Math.floor(px / CHAR_PX)

/** At most `max` characters, by code point (a cut never splits a surrogate pair), on one line. */
export function cut(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- a row is one line: controls and breaks become spaces
  const flat = text.replace(/[\u0000-\u001F\u007F]+/g, ' ')
  const chars = Array.from(flat)
  return chars.length <= max ? flat : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`
}

function show(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? '')
}
