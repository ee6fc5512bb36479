import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult, SpecRef } from '../model.ts'
import type { CallOutcome, ToolView } from './adapter.ts'
import type { CallExpectation, Scenario } from './scenario.ts'

/** Pure: does one call's outcome meet its expectation? Returns the mismatches. */
export function callMismatches(outcome: CallOutcome, expected: CallExpectation): string[] {
  const problems: string[] = []
  if (outcome.unanswered) return [outcome.unanswered]
  const text = outcome.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
  const isError = expected.isError ?? (expected.code !== undefined ? true : undefined)
  if (isError !== undefined && outcome.isError !== isError) problems.push(`expected ${isError ? 'an error' : 'success'}, got ${outcome.isError ? `error ${outcome.code}` : 'success'}: ${text.slice(0, 200)}`)
  if (expected.code !== undefined && outcome.code !== expected.code) problems.push(`expected code ${expected.code}, got ${outcome.code ?? 'none'}`)
  if (expected.text !== undefined && !new RegExp(expected.text).test(text)) problems.push(`text does not match /${expected.text}/: ${JSON.stringify(text.slice(0, 300))}`)
  if (expected.notText !== undefined && new RegExp(expected.notText).test(text)) problems.push(`text matches /${expected.notText}/ but must not`)
  const images = outcome.content.filter((b) => b.type === 'image').length
  if (expected.images !== undefined && images !== expected.images) problems.push(`expected ${expected.images} image references, got ${images}`)
  if (expected.structured !== undefined) {
    const structured = (outcome.value as { structuredContent?: unknown } | undefined)?.structuredContent
    if (JSON.stringify(structured) !== JSON.stringify(expected.structured)) problems.push(`structuredContent is ${JSON.stringify(structured)}`)
  }
  return problems
}

export interface EndState {
  tools: ToolView[]
  logs: string[]
  state: string
  wire: WireEntry[]
  attachments: number
  duplicateRejected?: boolean
}

/** Pure: the scenario's end-of-run expectations as checks. */
export function checkExpectations(scenario: Scenario, end: EndState): CheckResult[] {
  const spec: SpecRef = scenario.spec[0]!
  const checks: CheckResult[] = []
  const add = (id: string, title: string, problems: string[], pass: string) =>
    checks.push({ id, title, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : pass, spec })
  const { expect } = scenario
  const raw = end.tools.map((t) => t.rawName).sort()
  if (expect.tools) {
    const wanted = [...expect.tools].sort()
    add('expect/tools', 'The client exposes exactly the expected tools', JSON.stringify(raw) === JSON.stringify(wanted) ? [] : [`expected ${JSON.stringify(wanted)}, got ${JSON.stringify(raw)}`], `${raw.length} tools as expected`)
  }
  if (expect.publicNames) {
    const problems = Object.entries(expect.publicNames).flatMap(([rawName, name]) => {
      const actual = end.tools.find((t) => t.rawName === rawName)?.name
      return actual === name ? [] : [`${JSON.stringify(rawName)} is ${actual ?? 'not exposed'}, expected ${name}`]
    })
    add('expect/public-names', 'Public names are exactly as specified', problems, 'every public name as specified')
  }
  if (expect.logs.length || expect.noLogs.length) {
    const missing = expect.logs.filter((pattern) => !end.logs.some((line) => new RegExp(pattern).test(line))).map((p) => `no log line matches /${p}/`)
    const forbidden = expect.noLogs.filter((pattern) => end.logs.some((line) => new RegExp(pattern).test(line))).map((p) => `a log line matches /${p}/`)
    add('expect/logs', 'The client logs what it should, and nothing it should not', [...missing, ...forbidden], `${expect.logs.length} patterns found, ${expect.noLogs.length} absent`)
  }
  if (expect.state) add('expect/state', `The client ends ${expect.state}`, end.state === expect.state ? [] : [`state is ${end.state}`], `state ${end.state}`)
  for (const [method, bounds] of Object.entries(expect.received)) {
    const count = end.wire.filter(({ dir, msg }) => dir === 'recv' && (msg as { method?: string }).method === method).length
    const problems = [
      ...(bounds.min !== undefined && count < bounds.min ? [`received ${count}, expected at least ${bounds.min}`] : []),
      ...(bounds.max !== undefined && count > bounds.max ? [`received ${count}, expected at most ${bounds.max}`] : []),
    ]
    add(`expect/received/${method}`, `The server receives ${method} a bounded number of times`, problems, `received ${count}`)
  }
  if (expect.attachments !== undefined) {
    add('expect/attachments', 'The attachment store holds the expected number of files', end.attachments === expect.attachments ? [] : [`${end.attachments} files stored, expected ${expect.attachments}`], `${end.attachments} files`)
  }
  if (expect.duplicateServerNameRejected !== undefined) {
    const ok = end.duplicateRejected === expect.duplicateServerNameRejected
    add('expect/duplicate-server-name', 'A second instance with the same serverName is refused', ok ? [] : [`second instance ${end.duplicateRejected ? 'was refused' : 'loaded'}`], 'refused at load')
  }
  return checks
}
