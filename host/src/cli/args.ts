import { parseArgs } from 'node:util'
import { argvErrorMessage } from '@mcp-bridge/process'
import type { LogLevel } from '../logging.ts'

export const USAGE = `Usage: mcp-bridge [--config FILE] <command> [arguments]
       mcp-bridge --help | --version

Runs the MCP servers listed in a cordis.yml file through the bridge, the way a Cordis host does.

Commands:
  tools                 Print the tools as a model sees them: public name, description, arguments.
  call NAME [JSON]      Call the tool NAME (its public name) with JSON arguments (default {}) and
                        print what the model sees (the content) and the canonical value.
  watch                 Keep the host running, reloading FILE whenever it changes; logs go to
                        stderr. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM; SIGHUP reloads now.
  login SERVER          Sign in to the server whose entry has serverName SERVER (auth.type
                        authorization_code): prints the URL to open on stderr, waits up to 5
                        minutes for the browser to come back, and stores the tokens (0600 files
                        in MCP_BRIDGE_CREDENTIALS_DIR, default ~/.config/mcp-bridge/credentials).
  logout SERVER         Forget the tokens stored for SERVER.

Options:
  -c, --config FILE     The cordis.yml file to load (default: ./cordis.yml).
      --json            Print JSON on stdout (tools, call).
      --log-level LEVEL error, warn, info or debug (default: warn; info for watch).
  -h, --help            Show this help.
      --version         Print the version.

Data goes to stdout, logs to stderr.
Exit codes: 0 success; 1 the call returned an error, or an entry of FILE failed to load;
2 usage error (bad arguments, missing FILE); 130 or 143 stopped by SIGINT or SIGTERM (after the
servers it started are stopped).
`

interface Common {
  config: string
  logLevel: LogLevel
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | (Common & { kind: 'tools'; json: boolean })
  | (Common & { kind: 'call'; json: boolean; tool: string; args: Record<string, unknown> })
  | (Common & { kind: 'watch' })
  | (Common & { kind: 'login' | 'logout'; server: string })

export type ParsedArgs = { ok: true; command: Command } | { ok: false; error: string }

const LEVELS = new Set<string>(['error', 'warn', 'info', 'debug'])

/** Pure: argv (without node and the script) to a command, or the reason it is not one. */
export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    return { ok: false, error: argvErrorMessage(error) }
  }
  const { values, positionals } = parsed
  if (values.help) return { ok: true, command: { kind: 'help' } }
  if (values.version) return { ok: true, command: { kind: 'version' } }
  const [name, ...rest] = positionals
  if (name === undefined) return { ok: false, error: 'missing command: tools, call, watch, login or logout' }
  const logLevel = values['log-level'] ?? (name === 'watch' ? 'info' : 'warn')
  if (!LEVELS.has(logLevel)) return { ok: false, error: `--log-level must be error, warn, info or debug, not "${logLevel}"` }
  const common: Common = { config: values.config ?? 'cordis.yml', logLevel: logLevel as LogLevel }
  const json = values.json ?? false
  const extra = (allowed: number) => (rest.length > allowed ? `unexpected argument "${rest[allowed]}"` : undefined)

  switch (name) {
    case 'tools': {
      const error = extra(0)
      return error ? { ok: false, error } : { ok: true, command: { ...common, kind: 'tools', json } }
    }
    case 'call': {
      const [tool, text = '{}'] = rest
      if (tool === undefined) return { ok: false, error: 'call needs the public name of a tool, e.g. call mcp__everything__echo \'{"message":"hi"}\'' }
      const error = extra(2)
      if (error) return { ok: false, error }
      const args = parseJsonObject(text)
      return typeof args === 'string' ? { ok: false, error: args } : { ok: true, command: { ...common, kind: 'call', json, tool, args } }
    }
    case 'watch': {
      if (values.json) return { ok: false, error: '--json applies to tools and call, not watch' }
      const error = extra(0)
      return error ? { ok: false, error } : { ok: true, command: { ...common, kind: 'watch' } }
    }
    case 'login':
    case 'logout': {
      if (values.json) return { ok: false, error: `--json applies to tools and call, not ${name}` }
      const [server] = rest
      if (server === undefined) return { ok: false, error: `${name} needs the serverName of a bridge entry, e.g. ${name} github` }
      const error = extra(1)
      return error ? { ok: false, error } : { ok: true, command: { ...common, kind: name, server } }
    }
    default:
      return { ok: false, error: `unknown command "${name}": use tools, call, watch, login or logout` }
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: 'string', short: 'c' },
      json: { type: 'boolean' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
  })
}

/** A usage error as the three CLIs print it (@mcp-bridge/process, argv.ts): the reason, then where the usage is. */
export function usageErrorLines(reason: string): [string, string] {
  return [`mcp-bridge: ${reason}`, 'run `mcp-bridge --help` for usage']
}

/** The arguments of a call: a JSON object, or the message explaining why the text is not one. */
function parseJsonObject(text: string): Record<string, unknown> | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return `the arguments are not valid JSON (${(error as Error).message}): quote them, e.g. '{"message":"hi"}'`
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the arguments must be a JSON object, e.g. {"message":"hi"}'
  return value as Record<string, unknown>
}
