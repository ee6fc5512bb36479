/** Pure: mcp-conformance's argv → a validated command, or the one-line reason it is not one. */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ClientRunOptions } from '../client/index.ts'
import type { ToolCall } from '../server/probe/tools.ts'
import { DEFAULT_SERVER_OPTIONS } from '../server/options.ts'
import type { ServerTarget } from '../server/target.ts'
import type { Revision } from '../server/spec.ts'
import { MERGE_LABEL } from '../report/merge.ts'
import { argvErrorMessage, integerOption, MAX_TIMER_MS } from '@mcp-bridge/process'
import { escapeControls } from '@mcp-bridge/plugin'

/** The revisions --spec-version takes, oldest first (the order of `all`). */
export const SPEC_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const satisfies readonly Revision[]

export const USAGE = `Usage:
  mcp-conformance [run options] [--transport T] [--timeout MS] [--startup-timeout MS]
      the built-in default: every client scenario against the mcp-bridge plugin, then the server
      checks against server-everything over stdio (baseline: examples/default.baseline.yaml)
  mcp-conformance server [run options] [server options] --url URL [--header K=V ...]
  mcp-conformance server [run options] [server options] -- COMMAND [ARGS...]
  mcp-conformance client [run options] [--transport T] [--scenario ID ...] [--update-snapshots] [--shard I/N]
                          [--driver COMMAND]
  mcp-conformance judge [run options] --wire FILE [--scenario ID]
                          verdicts from a wire log mcp-fixture --wire FILE recorded while any client
                          talked to it (with --scenario, also that scenario's received bounds)
  mcp-conformance list                 client scenarios, one "id<TAB>title" per line on stdout
  mcp-conformance --help | --version

Run options (the default run, server and client):
  --report-dir DIR        where results.json, junit.xml and report.html are written (default ./reports)
  --baseline FILE         YAML file of expected failures ("<suite>:<check>"); stale entries fail the run
  --compare FILE          a previous results.json: the summary and report.html show what changed
                          (new failures, fixed checks, new and removed checks)
  --merge LABEL=FILE      put the suites of another run's results.json beside this run's, ids prefixed
                          with LABEL/ and their expected failures kept (repeatable): e.g. the client
                          scenarios run with the plugin hosted by the DeepSeek harness (hosts/dsh/kit.mjs)
  --summary-md FILE       also write a Markdown summary of the run (e.g. to $GITHUB_STEP_SUMMARY)
  --annotations FORMAT    github: print ::error/::warning/::notice workflow commands for the checks
                          that did not pass on stdout; none (the default): print nothing on stdout
Client options (the default run, client):
  --transport T           stdio, http or all (default all)
  --scenario ID           client: run only this scenario (repeatable)
  --update-snapshots      client: rewrite the transcript snapshots (refused when CI=true)
  --shard I/N             client: run the I-th of N slices of the scenarios (1-based)
  --driver COMMAND        client: judge the MCP client behind this driver program (JSON lines on its
                          stdin/stdout: FORMAT.md in this package; a complete one to copy is its
                          drivers/sdk-client.mjs) instead of the mcp-bridge plugin; it is judged
                          on what every MCP client must do, the rest is reported skipped
Judge options:
  --wire FILE             judge: the wire log to judge
  --scenario ID           judge: the scenario the fixture served (adds its received bounds)
Server options (the default run, server):
  --timeout MS            per-request timeout, 1 to ${MAX_TIMER_MS} (default ${DEFAULT_SERVER_OPTIONS.requestTimeoutMs})
  --startup-timeout MS    initialize timeout, 1 to ${MAX_TIMER_MS} (default ${DEFAULT_SERVER_OPTIONS.startupTimeoutMs})
  --url URL               server: judge a Streamable HTTP server
  --header K=V            server: an HTTP header for every request to --url (repeatable)
  --call NAME=JSON        server: allow calling tool NAME with these arguments (repeatable); no other
                          tool is called
  --server-name NAME      server: serverName for the bridge projection (default: from serverInfo.name)
  --spec-version V        server: judge exactly revision V (${SPEC_VERSIONS.join(', ')}), or each of them
                          in turn with "all" (one suite per revision, side by side in every report);
                          default: ask for the newest and follow the server's counter-offer

Progress and the summary go to stderr; stdout carries only list, --help, --version and annotations.
Exit codes: 0 all checks pass (warnings and skips allowed); 1 a check failed or a baseline entry is
stale; 2 invalid usage, or a check could not run (harness error); 130 or 143 stopped by SIGINT or
SIGTERM (the servers it started are stopped first).
`

export type Annotations = 'github' | 'none'
export type Transport = 'stdio' | 'http'

/** What every run (default, server, client) takes. */
export interface RunOptions {
  reportDir: string
  baseline?: string
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
  | ({ kind: 'default'; transports: Transport[] } & Timeouts & RunOptions)
  | ({ kind: 'server'; target: ServerTarget; calls: ToolCall[]; serverName?: string; revisions?: Revision[] } & Timeouts & RunOptions)
  | ({ kind: 'client'; options: Omit<ClientRunOptions, 'onProgress'> } & RunOptions)
  | ({ kind: 'judge'; wire: string; scenario?: string } & RunOptions)
  | { kind: 'list' }
  | { kind: 'help' }
  | { kind: 'version' }

export type ParseResult = { ok: true; command: Command } | { ok: false; error: string }

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  'report-dir': { type: 'string' },
  baseline: { type: 'string' },
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
  driver: { type: 'string' },
  wire: { type: 'string' },
} as const
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

const RUN = ['report-dir', 'baseline', 'compare', 'merge', 'summary-md', 'annotations']
const ALLOWED: Record<string, string[]> = {
  default: [...RUN, 'transport', 'timeout', 'startup-timeout'],
  server: [...RUN, 'timeout', 'startup-timeout', 'url', 'header', 'call', 'server-name', 'spec-version'],
  client: [...RUN, 'transport', 'scenario', 'update-snapshots', 'shard', 'driver'],
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
  if (values.help || named === 'help') return { ok: true, command: { kind: 'help' } }
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
  return { ok: true, command: { kind: 'default', transports, ...timeouts, ...run } }
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
function parseSpecVersion(value: string | undefined): Revision[] | undefined | string {
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
  if (values.driver !== undefined) options.driver = values.driver
  return { ok: true, command: { kind: 'client', options, ...common } }
}
