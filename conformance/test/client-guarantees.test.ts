/**
 * docs/GUARANTEES.md maps every promise of the plugin's docs to what fails when it breaks. This
 * keeps it complete and true: a row per configuration field, outage event and error code of
 * plugin/README.md, and every scenario, check and test file it names real.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadScenarios } from '../src/client/load.ts'
import type { Scenario } from '../src/client/scenario.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const README = readFileSync(`${ROOT}plugin/README.md`, 'utf8')
const MAP = readFileSync(`${ROOT}conformance/docs/GUARANTEES.md`, 'utf8')
const scenarios = new Map(loadScenarios().map(({ scenario }) => [scenario.id, scenario]))

/** The rows of the first Markdown table after the line that starts with `header`, as cells. */
function tableAfter(text: string, header: string): string[][] {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line.startsWith(header))
  expect(start, `a table starting ${JSON.stringify(header)}`).toBeGreaterThanOrEqual(0)
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()))
  }
  return rows
}

/** The map's rows of one section: its first cell and what it says judges it. */
function mapSection(title: string): Map<string, string> {
  const section = MAP.slice(MAP.indexOf(`## ${title}\n`))
  const header = section.split('\n').find((line) => line.startsWith('| '))!
  return new Map(tableAfter(section, header).map(([first, judged]) => [first!, judged!]))
}

const firstCode = (cell: string) => /`([^`]+)`/.exec(cell)?.[1] ?? cell

/** Whether a run of the scenario produces this check (statically, from what it declares). */
function produces(scenario: Scenario, check: string): boolean {
  const steps = scenario.steps
  const calls = steps.filter((step) => 'call' in step && step.call.expect)
  let m: RegExpExecArray | null
  if (/^(invariant\/|transcript\/snapshot$)/.test(check)) return true
  if ((m = /^expect\/call-(\d+)$/.exec(check))) return Number(m[1]) <= steps.filter((step) => 'call' in step).length && calls.length > 0
  if ((m = /^timing\/step-(\d+)$/.exec(check))) return steps[Number(m[1]) - 1]?.took !== undefined
  if ((m = /^expect\/tools-at-step-(\d+)$/.exec(check))) return steps[Number(m[1]) - 1] !== undefined && 'expectTools' in steps[Number(m[1]) - 1]!
  // A step beyond tools: its expectation, and the wire checks its verb has (beyond.ts).
  if ((m = /^(expect|wire)\/([a-zA-Z-]+)-(\d+)$/.exec(check)) && m[2] !== 'call') return beyondProduces(steps[Number(m[3]) - 1], m[1]!, m[2]!)
  if (check === 'timing/start' || check === 'timing/total' || check === 'timing/dispose') return scenario.timing?.[check.slice(7) as 'start' | 'total' | 'dispose'] !== undefined
  if (check === 'expect/settled') return scenario.settle !== undefined
  if ((m = /^expect\/received\/(.+)$/.exec(check))) return scenario.expect.received[m[1]!] !== undefined
  if ((m = /^expect\/http-status\/(\d{3}(?:\/.+)?)$/.exec(check))) return scenario.expect.httpStatus[m[1]!] !== undefined
  if ((m = /^expect\/token-requests\/(.+)$/.exec(check))) return scenario.expect.tokenRequests[m[1]!] !== undefined
  if ((m = /^expect\/bearer\/(.+)$/.exec(check))) return (scenario.expect.bearer as Record<string, unknown>)[m[1]!] !== undefined
  const keys: Record<string, keyof Scenario['expect']> = {
    'expect/tools': 'tools',
    'expect/descriptions': 'descriptions',
    'expect/public-names': 'publicNames',
    'expect/state': 'state',
    'expect/running': 'running',
    'expect/shutdown': 'shutdown',
    'expect/attachments': 'attachments',
    'expect/duplicate-server-name': 'duplicateServerNameRejected',
    'expect/duplicate-server-name-message': 'duplicateServerNameMessage',
  }
  if (check === 'expect/logs') return scenario.expect.logs !== undefined || scenario.expect.noLogs.length > 0
  return keys[check] !== undefined && scenario.expect[keys[check]] !== undefined
}

/** The verb each beyond step asks (FORMAT.md), and the wire checks that verb's step has. */
const BEYOND_VERBS: Record<string, { op: string; wire: string[] }> = {
  listResources: { op: 'resources', wire: ['capability', 'cursors'] },
  listTemplates: { op: 'templates', wire: ['capability', 'cursors'] },
  readResource: { op: 'read', wire: ['capability', 'read-uri'] },
  listPrompts: { op: 'prompts', wire: ['capability', 'cursors'] },
  getPrompt: { op: 'prompt', wire: ['capability', 'prompt-arguments'] },
  complete: { op: 'complete', wire: ['capability'] },
  subscribe: { op: 'subscribe', wire: ['capability'] },
  unsubscribe: { op: 'unsubscribe', wire: ['capability'] },
  resourceUpdates: { op: 'updates', wire: [] },
  serverInstructions: { op: 'instructions', wire: [] },
}

function beyondProduces(step: object | undefined, kind: string, name: string): boolean {
  // setRoots judges its announcement with or without an expectation (run/steps/set-roots.ts).
  if (step !== undefined && 'setRoots' in step) return kind === 'expect' && name === 'setRoots'
  const key = Object.keys(BEYOND_VERBS).find((verb) => step !== undefined && verb in step)
  if (!key) return false
  const verb = BEYOND_VERBS[key]!
  return kind === 'expect' ? name === verb.op && (step as Record<string, { expect?: unknown }>)[key]?.expect !== undefined : verb.wire.includes(name)
}

/** Every entry of a "judged by" cell: scenario checks, test files, or a declared gap. */
function entries(cell: string): Array<{ scenario: string; checks: string[] } | { file: string } | { gap: string }> {
  // Parts are separated by "; " outside parentheses (a note in parentheses may hold its own).
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const char of cell) {
    depth += char === '(' ? 1 : char === ')' ? -1 : 0
    if (char === ';' && depth === 0) {
      parts.push(current.trim())
      current = ''
    } else current += char
  }
  parts.push(current.trim())
  return parts.map((part) => {
    const scenario = /^`([a-z0-9-]+)`: (.+)$/.exec(part)
    // Checks are the backticked names before a note in parentheses.
    if (scenario) return { scenario: scenario[1]!, checks: [...scenario[2]!.split('(')[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) }
    const file = /^`([\w.-]+\/[^`]+\.(?:ts|mjs|js))`/.exec(part)
    if (file) return { file: file[1]! }
    if (part.startsWith('gap:')) return { gap: part }
    // "every scenario: `invariant/...`" names an always-on check.
    if (/^every scenario/.test(part)) return { scenario: '*', checks: [...part.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) }
    throw new Error(`cannot read ${JSON.stringify(part)}`)
  })
}

describe('docs/GUARANTEES.md', () => {
  it('has a row for every configuration field of plugin/README.md', () => {
    const fields = tableAfter(README, '| field | default | rule |').map(([field]) => firstCode(field!))
    expect(fields.length).toBeGreaterThan(20)
    const mapped = [...mapSection('Configuration').keys()].map(firstCode)
    expect(fields.filter((field) => !mapped.includes(field)), 'README fields without a row').toEqual([])
  })

  it('has a row for every outage event and every error code of plugin/README.md', () => {
    const events = tableAfter(README, '| event | what happens | log |').map(([event]) => event!)
    expect(events.filter((event) => !mapSection('Outages').has(event)), 'outage events without a row').toEqual([])
    const codes = tableAfter(README, '| code | meaning |').map(([code]) => firstCode(code!))
    expect(codes.length).toBeGreaterThan(5)
    expect(codes.filter((code) => !mapSection('Error codes').has(`\`${code}\``)), 'error codes without a row').toEqual([])
  })

  it('names only scenarios that exist, checks they produce, and test files that exist', () => {
    const rows = [...MAP.matchAll(/^\| (.+) \| (.+) \|$/gm)].filter(([, first]) => !/^(-+|field|event|code|promise|log)$/.test(first!))
    expect(rows.length).toBeGreaterThan(80)
    const problems: string[] = []
    for (const [, promise, judged] of rows) {
      const parts = entries(judged!)
      if (!parts.some((part) => 'file' in part || ('scenario' in part && part.checks.length))) problems.push(`${promise}: nothing judges it`)
      for (const part of parts) {
        if ('file' in part && !existsSync(`${ROOT}${part.file}`)) problems.push(`${promise}: no file ${part.file}`)
        if (!('scenario' in part) || part.scenario === '*') continue
        const scenario = scenarios.get(part.scenario)
        if (!scenario) problems.push(`${promise}: no scenario ${part.scenario}`)
        else for (const check of part.checks) if (!produces(scenario, check)) problems.push(`${promise}: ${part.scenario} does not produce ${check}`)
      }
    }
    expect(problems).toEqual([])
  })
})
