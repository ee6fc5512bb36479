/** Pure: mcp-conformance's argv → a validated command, or the one-line reason it is not one. */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ClientRunOptions } from '../client/index.ts'
import { MAX_JOBS } from '../client/pool.ts'
import type { ToolCall } from '../server/probe/tools.ts'
import { DEFAULT_SERVER_OPTIONS } from '../server/options.ts'
import type { ServerTarget } from '../server/target.ts'
import { MERGE_LABEL } from '../report/merge.ts'
import { argvErrorMessage, escapeControls, integerOption, MAX_TIMER_MS } from '@mcp-bridge/process'
import { isHelpTopic, type HelpTopic } from './help.ts'
import { SPEC_VERSIONS, type SpecVersion } from './spec-versions.ts'

export { USAGE } from './help.ts'
export { SPEC_VERSIONS } from './spec-versions.ts'

export type Annotations = 'github' | 'none'
export type Transport = 'stdio' | 'http'

/** What every run (default, server, client) takes. */
export interface RunOptions {
  reportDir: string
  baseline?: string
  /** Where to write this run's failures as a baseline. */
  writeBaseline?: string
  /** A previous results.json to compare this run with. */
  compare?: string
  /** Other runs' results.json to show beside this one's suites, each under its label. */
  merge: Array<{ label: string; path: string }>
  summaryMd?: string
  annotations: Annotations
}
interface Timeouts {
  timeoutMs: number
  startupTimeoutMs: number
}
export type Command =
  | ({ kind: 'default'; transports: Transport[]; jobs?: number } & Timeouts & RunOptions)
  | ({ kind: 'server'; target: ServerTarget; calls: ToolCall[]; serverName?: string; revisions?: SpecVersion[] } & Timeouts & RunOptions)
  | ({ kind: 'client'; options: Omit<ClientRunOptions, 'onProgress'> } & RunOptions)
  | ({ kind: 'judge'; wire: string; scenario?: string } & RunOptions)
  | { kind: 'list' }
  | { kind: 'help'; topic?: HelpTopic }
  | { kind: 'version' }

export type ParseResult = { ok: true; command: Command } | { ok: false; error: string }

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  'report-dir': { type: 'string' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  compare: { type: 'string' },
  merge: { type: 'string', multiple: true },
  'summary-md': { type: 'string' },
  annotations: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  call: { type: 'string', multiple: true },
  'server-name': { type: 'string' },
  'spec-version': { type: 'string' },
  timeout: { type: 'string' },
  'startup-timeout': { type: 'string' },
  transport: { type: 'string' },
  scenario: { type: 'string', multiple: true },
  'update-snapshots': { type: 'boolean' },
  shard: { type: 'string' },
  jobs: { type: 'string' },
  driver: { type: 'string' },
  wire: { type: 'string' },
} as const
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

const RUN = ['report-dir', 'baseline', 'write-baseline', 'compare', 'merge', 'summary-md', 'annotations']
const ALLOWED: Record<string, string[]> = {
  default: [...RUN, 'transport', 'jobs', 'timeout', 'startup-timeout'],
  server: [...RUN, 'timeout', 'startup-timeout', 'url', 'header', 'call', 'server-name', 'spec-version'],
  client: [...RUN, 'transport', 'scenario', 'update-snapshots', 'shard', 'jobs', 'driver'],
  judge: [...RUN, 'wire', 'scenario'],
  list: [],
}

// Every usage error may quote what was typed (a --call name, a header): its control characters are written as escapes, never sent to the terminal.
const usage = (error: string): ParseResult => ({ ok: false, error: escapeControls(error) })

/** argv without node and script. Everything after the first `--` is the server command, untouched. */
export function parseCommand(argv: string[], cwd: string): ParseResult {
  const dashes = argv.indexOf('--')
  const [before, command] = dashes < 0 ? [argv, []] : [argv.slice(0, dashes), argv.slice(dashes + 1)]
  let parsed: { values: Values; positionals: string[] }
  try {
    parsed = parseArgs({ args: before, options: OPTIONS, strict: true, allowPositionals: true })
  } catch (error) {
    return usage(argvErrorMessage(error))
  }
  const { values, positionals } = parsed
  const [named, ...extra] = positionals
  // `server --help` and `help server` are the server's own page; a word that is no command is the usage error below.
  if (named === 'help') return helpCommand(extra)
  if (values.help && (named === undefined || isHelpTopic(named))) return { ok: true, command: { kind: 'help', ...(named ? { topic: named } : {}) } }
  if (values.version) return { ok: true, command: { kind: 'version' } }
  // The default run has no name: `mcp-conformance default` is as unknown as any other word.
  const sub = named ?? 'default'
  const allowed = named === 'default' || !Object.hasOwn(ALLOWED, sub) ? undefined : ALLOWED[sub]
  if (!allowed) return usage(`unknown command ${JSON.stringify(sub)}: use server, client, judge or list (or no command for the default run)`)
  if (extra.length) return usage(`unexpected argument ${JSON.stringify(extra[0])}`)
  const misplaced = Object.keys(values).find((key) => !allowed.includes(key))
  if (misplaced) return usage(`--${misplaced} is not an option of ${named ? `"${sub}"` : 'the default run'}`)
  if (command.length && sub !== 'server') return usage('"--" is only for "server"')
  const empty = Object.entries(values).find(([, value]) => value === '' || (Array.isArray(value) && value.includes('')))
  if (empty) return usage(`--${empty[0]} needs a value`)
  if (sub === 'list') return { ok: true, command: { kind: 'list' } }

  const run = runOptions(values, cwd)
  if (typeof run === 'string') return usage(run)
  if (sub === 'client') return parseClient(values, run)
  if (sub === 'judge') {
    if (values.wire === undefined) return usage('"judge" needs --wire FILE (a wire log written by mcp-fixture --wire FILE)')
    if ((values.scenario ?? []).length > 1) return usage('"judge" takes one --scenario')
    return { ok: true, command: { kind: 'judge', wire: resolve(cwd, values.wire), ...(values.scenario?.[0] ? { scenario: values.scenario[0] } : {}), ...run } }
  }
  const timeouts = parseTimeouts(values)
  if (typeof timeouts === 'string') return usage(timeouts)
  if (sub === 'server') return parseServer(values, command, { ...run, ...timeouts }, cwd)
  const transports = parseTransport(values)
  if (typeof transports === 'string') return usage(transports)
  const jobs = parseJobs(values)
  if (typeof jobs === 'string') return usage(jobs)
  return { ok: true, command: { kind: 'default', transports, ...(jobs !== undefined ? { jobs } : {}), ...timeouts, ...run } }
}

function helpCommand([topic, more]: string[]): ParseResult {
  if (topic === undefined) return { ok: true, command: { kind: 'help' } }
  if (!isHelpTopic(topic)) return usage(`no help page for ${JSON.stringify(topic)}: use help server, client, judge or list (or --help for all)`)
  if (more !== undefined) return usage(`unexpected argument ${JSON.stringify(more)}`)
  return { ok: true, command: { kind: 'help', topic } }
}

function runOptions(values: Values, cwd: string): RunOptions | string {
  const annotations = values.annotations ?? 'none'
  if (annotations !== 'github' && annotations !== 'none') return `--annotations must be github or none, not ${JSON.stringify(annotations)}`
  const merge: RunOptions['merge'] = []
  for (const entry of values.merge ?? []) {
    const eq = entry.indexOf('=')
    const label = entry.slice(0, Math.max(eq, 0))
    if (eq <= 0 || eq === entry.length - 1) return `--merge ${JSON.stringify(entry)} is not LABEL=FILE (for example dsh=reports-dsh/results.json)`
    if (!MERGE_LABEL.test(label)) return `--merge label ${JSON.stringify(label)} must be 1-32 of a-z 0-9 - (for example dsh)`
    if (merge.some((m) => m.label === label)) return `--merge label ${JSON.stringify(label)} is given twice`
    merge.push({ label, path: resolve(cwd, entry.slice(eq + 1)) })
  }
  return {
    merge,
    reportDir: resolve(cwd, values['report-dir'] ?? 'reports'),
    ...(values.baseline !== undefined ? { baseline: resolve(cwd, values.baseline) } : {}),
    ...(values['write-baseline'] !== undefined ? { writeBaseline: resolve(cwd, values['write-baseline']) } : {}),
    ...(values.compare !== undefined ? { compare: resolve(cwd, values.compare) } : {}),
    ...(values['summary-md'] !== undefined ? { summaryMd: resolve(cwd, values['summary-md']) } : {}),
    annotations,
  }
}

function parseTimeouts(values: Values): Timeouts | string {
  const timeoutMs = integerOption('timeout', values.timeout ?? String(DEFAULT_SERVER_OPTIONS.requestTimeoutMs), 1, MAX_TIMER_MS, 'milliseconds')
  if (typeof timeoutMs === 'string') return timeoutMs
  const startupTimeoutMs = integerOption('startup-timeout', values['startup-timeout'] ?? String(DEFAULT_SERVER_OPTIONS.startupTimeoutMs), 1, MAX_TIMER_MS, 'milliseconds')
  if (typeof startupTimeoutMs === 'string') return startupTimeoutMs
  return { timeoutMs, startupTimeoutMs }
}

function parseTransport(values: Values): Transport[] | string {
  const transport = values.transport ?? 'all'
  if (transport === 'all') return ['stdio', 'http']
  if (transport === 'stdio' || transport === 'http') return [transport]
  return `--transport must be stdio, http or all, not ${JSON.stringify(transport)}`
}

function parseServer(values: Values, command: string[], common: RunOptions & Timeouts, cwd: string): ParseResult {
  const url = values.url
  if (url !== undefined && command.length) return usage('give either --url or "-- COMMAND", not both')
  if (url === undefined && command.length === 0) return usage('"server" needs --url URL or -- COMMAND [ARGS...]')
  const headers: Record<string, string> = {}
  for (const header of values.header ?? []) {
    const eq = header.indexOf('=')
    if (eq <= 0) return usage(`--header ${JSON.stringify(header)} is not K=V`)
    headers[header.slice(0, eq).trim()] = header.slice(eq + 1)
  }
  let target: ServerTarget
  if (url !== undefined) {
    if (!/^https?:\/\/[^/]/i.test(url)) return usage(`--url ${JSON.stringify(url)} is not an http(s) URL`)
    target = { kind: 'http', url, headers }
  } else {
    if (Object.keys(headers).length) return usage('--header only applies to --url')
    target = { kind: 'stdio', command: command[0] as string, args: command.slice(1), cwd }
  }
  const calls: ToolCall[] = []
  for (const call of values.call ?? []) {
    const eq = call.indexOf('=')
    if (eq <= 0) return usage(`--call ${JSON.stringify(call)} is not NAME=JSON`)
    const name = call.slice(0, eq)
    let args: unknown
    try {
      args = JSON.parse(call.slice(eq + 1))
    } catch {
      return usage(`--call ${name}: the arguments are not valid JSON`)
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return usage(`--call ${name}: the arguments must be a JSON object`)
    if (calls.some((c) => c.name === name)) return usage(`--call ${name} is given twice`)
    calls.push({ name, arguments: args as Record<string, unknown> })
  }
  const serverName = values['server-name']
  if (serverName !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(serverName)) return usage('--server-name must match ^[A-Za-z0-9_-]{1,32}$')
  const revisions = parseSpecVersion(values['spec-version'])
  if (typeof revisions === 'string') return usage(revisions)
  return { ok: true, command: { kind: 'server', target, calls, ...(serverName ? { serverName } : {}), ...(revisions ? { revisions } : {}), ...common } }
}

/** --spec-version: one revision, or all of them oldest first; absent, the run asks for the newest and follows a counter-offer. */
function parseSpecVersion(value: string | undefined): SpecVersion[] | undefined | string {
  if (value === undefined) return undefined
  if (value === 'all') return [...SPEC_VERSIONS]
  const known = SPEC_VERSIONS.find((revision) => revision === value)
  return known ? [known] : `--spec-version must be ${SPEC_VERSIONS.join(', ')} or all, not ${JSON.stringify(value)}`
}

function parseClient(values: Values, common: RunOptions): ParseResult {
  const transports = parseTransport(values)
  if (typeof transports === 'string') return usage(transports)
  const options: Omit<ClientRunOptions, 'onProgress'> = { transports, scenarioIds: values.scenario ?? [], updateSnapshots: values['update-snapshots'] === true }
  if (values.shard !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(values.shard)
    const index = Number(match?.[1])
    const count = Number(match?.[2])
    if (!match || count < 1 || index < 1 || index > count) return usage(`--shard must be I/N with 1 <= I <= N, not ${JSON.stringify(values.shard)}`)
    options.shard = { index, count }
  }
  const jobs = parseJobs(values)
  if (typeof jobs === 'string') return usage(jobs)
  if (jobs !== undefined) options.jobs = jobs
  if (values.driver !== undefined) options.driver = values.driver
  return { ok: true, command: { kind: 'client', options, ...common } }
}

/** --jobs: scenario runs at once; absent, the runner's default (two per core, capped). */
function parseJobs(values: Values): number | undefined | string {
  return values.jobs === undefined ? undefined : integerOption('jobs', values.jobs, 1, MAX_JOBS)
}
