/**
 * Pure: one suite of report.html, the detail a matrix cell links to. Checks that need a look are
 * listed; passing ones are folded into one line. A client run shows its wire diagram with the
 * plain-text transcript one click further; a server suite is grouped by area like its matrix.
 */
import { suiteRunLabel, type CheckResult, type SuiteResult } from '../model.ts'
import { cut, failuresByStep, formatDiagram, type StepFailure } from './diagram.ts'
import { escapeHtml, safeUrl } from './escape.ts'
import { TONE_WORD } from './html-overview.ts'
import { areasOf, tally, TONES, toneOf } from './overview.ts'

/** Lines of the plain-text transcript beyond this are cut; a long line wraps in the page instead. */
const MAX_LINE = 400

export function formatSuite(suite: SuiteResult, index: number): string {
  const id = `suite-${index}`
  const counts = tally(suite.checks)
  const summary = TONES.filter((t) => counts[t] > 0).map((t) => `${counts[t]} ${TONE_WORD[t]}`).join(', ')
  const info = [suite.kind === 'client' ? suite.id : '', suite.kind, suiteRunLabel(suite), `${suite.durationMs} ms`, summary].filter(Boolean).map((x) => escapeHtml(String(x)))
  const target = suite.title.includes(suite.target) ? [] : [escapeHtml(suite.target)]
  const failures = suite.transcript ? failuresByStep(suite.transcript.events, suite.checks) : []
  const stepOf = (check: CheckResult) => failures.find((f) => f.check === check)
  const body =
    suite.kind === 'server'
      ? areasOf(suite).map(({ area, checks }, k) => `<div class="area" id="${id}-area-${k}"><h3>${escapeHtml(area)}</h3>\n${formatChecks(checks, () => undefined, id)}\n</div>`).join('\n')
      : formatChecks(suite.checks, stepOf, id)
  return `<section class="suite" id="${id}" data-suite="${escapeHtml(suite.id)}">
<h2>${escapeHtml(suite.title)}</h2>
<p class="target">${[...target, ...info].join(' · ')}</p>
${suite.transcript ? formatTranscript(suite, id, failures) : ''}${body}
</section>`
}

/** Checks that need a look one by one; the passing ones behind one line, so green does not drown the rest. */
function formatChecks(checks: CheckResult[], stepOf: (check: CheckResult) => StepFailure | undefined, id: string): string {
  const passed = checks.filter((c) => c.status === 'pass')
  const rest = checks.filter((c) => c.status !== 'pass')
  const folded = passed.length
    ? `<details class="passed"><summary>${passed.length} passed check${passed.length === 1 ? '' : 's'}</summary>\n${passed.map((c) => formatCheck(c, undefined, id)).join('\n')}\n</details>`
    : ''
  return [...rest.map((c) => formatCheck(c, stepOf(c), id)), folded].filter(Boolean).join('\n')
}

function formatCheck(check: CheckResult, step: StepFailure | undefined, id: string): string {
  const href = safeUrl(check.spec?.url)
  const specLine = check.spec
    ? `<p class="spec">Spec: ${href ? `<a href="${escapeHtml(href)}" rel="noreferrer noopener" target="_blank">${escapeHtml(check.spec.ref)}</a>` : escapeHtml(check.spec.ref)}</p>`
    : ''
  const onDiagram = step ? `<p class="spec"><a href="#${id}-step-${step.step}">Show it on the wire diagram</a> (${escapeHtml(step.step === 0 ? 'start' : `step ${step.step}`)}: ${escapeHtml(cut(step.text, 120))})</p>` : ''
  const sections = [
    check.details !== undefined ? `<h4>Details</h4><pre>${escapeHtml(JSON.stringify(check.details, null, 2))}</pre>` : '',
    check.wire?.length ? `<h4>Wire</h4><pre>${escapeHtml(JSON.stringify(check.wire, null, 2))}</pre>` : '',
  ].join('')
  const tone = toneOf(check)
  return `<details class="check" data-status="${escapeHtml(check.status)}">
<summary><span class="badge ${tone}">${escapeHtml(check.status.toUpperCase())}</span><span class="id">${escapeHtml(check.id)}</span><span class="title">${escapeHtml(check.title)}</span>${check.expected ? '<span class="expected">expected</span>' : ''}</summary>
<div class="body"><p class="message">${escapeHtml(check.message)}</p>${specLine}${onDiagram}${sections}</div>
</details>`
}

function formatTranscript(suite: SuiteResult, id: string, failures: StepFailure[]): string {
  const transcript = suite.transcript!
  const messages = transcript.events.filter((e) => e.kind === 'message').length
  const steps = transcript.events.filter((e) => e.kind === 'step' && e.step > 0 && !e.end).length
  const marked = failures.length ? ` <span class="marked">${failures.length} failing check${failures.length === 1 ? '' : 's'} marked</span>` : ''
  const captions = failures
    .map((f) => `<li class="${f.tone}"><a href="#${id}-step-${f.step}">${escapeHtml(f.step === 0 ? 'Start' : `Step ${f.step}`)}</a> (${escapeHtml(cut(f.text, 120))}): <code>${escapeHtml(cut(f.check.id, 120))}</code> ${escapeHtml(TONE_WORD[f.tone])}: ${escapeHtml(firstLine(f.check.message))}</li>`)
    .join('')
  const server = `fixture over ${suite.transport === 'http' ? 'HTTP' : (suite.transport ?? 'its transport')}`
  const text = transcript.text ? `<details class="transcript-text"><summary>Plain-text transcript</summary><pre>${escapeHtml(cutLines(transcript.text))}</pre></details>` : ''
  return `<details class="diagram"><summary>Wire diagram <span class="muted">(${messages} message${messages === 1 ? '' : 's'}, ${steps} step${steps === 1 ? '' : 's'})</span>${marked}</summary>
<div class="diagram-body">${captions ? `<ul class="diagram-failures">${captions}</ul>` : ''}<div class="svg-box">${formatDiagram({ transcript, checks: suite.checks, id, client: suite.target, server })}</div>
${text}</div>
</details>
`
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? ''
  return line.length <= 300 ? line : `${line.slice(0, 300)}…`
}

function cutLines(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE)}… [${line.length - MAX_LINE} more characters]`))
    .join('\n')
}
