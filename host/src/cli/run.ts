import { stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { McpElicitationService, McpSamplingService } from '@mcp-bridge/plugin'
import type { FileHost } from '../loader/host.ts'
import { parseCommandLine, usageErrorLines, USAGE, type Command } from './args.ts'
import { formatResult, formatTools, resultJson, toolsJson } from './format.ts'
import { credentialsDir } from '../credentials.ts'

export interface CliIo {
  /** Data: the tool list, call results, help. */
  stdout(text: string): void
  /** One log or diagnostic line. */
  stderr(line: string): void
  env: Readonly<Record<string, string | undefined>>
  /**
   * Registers what a stop request (SIGINT/SIGTERM) does while the host runs in the foreground;
   * returns the unregistration. The process glue then exits with 130 or 143 once the host is
   * disposed.
   */
  onStop(handler: () => void): () => void
  /** The host's `mcpElicitation` service: the terminal prompt (elicitation.ts); absent, none. */
  elicitation?: McpElicitationService
  /** The host's `mcpSampling` service: the operator at the terminal (sampling.ts); absent, none. */
  sampling?: McpSamplingService
  /** Registers what a reload request (SIGHUP) does; returns the unregistration. */
  onReload(handler: () => void): () => void
}

/** This package's manifest: src/cli/ and dist/cli/ both sit two levels below package.json. */
const PACKAGE = createRequire(import.meta.url)('../../package.json') as { version: string; peerDependencies: { cordis: string } }

/** Runs one command line; resolves with the exit code. Every host it starts is disposed before it returns. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(argv)
  if (!parsed.ok) {
    for (const line of usageErrorLines(parsed.error)) io.stderr(line)
    return 2
  }
  const { command } = parsed
  if (command.kind === 'help') {
    io.stdout(USAGE)
    return 0
  }
  if (command.kind === 'version') {
    io.stdout(`mcp-bridge ${PACKAGE.version}\n`)
    return 0
  }
  const missing = await stat(command.config).then(
    (info) => (info.isFile() ? undefined : 'is not a file'),
    () => 'does not exist',
  )
  if (missing) {
    for (const line of usageErrorLines(`the config file ${command.config} ${missing} (pass --config FILE)`)) io.stderr(line)
    return 2
  }

  // Sign-ins need no Cordis host: the flow runs on its own, with the entry's config.
  if (command.kind === 'login' || command.kind === 'logout') return (await import('./login.ts')).login(command.config, command.server, io, command.kind)
  const hosts = await fileHosts()
  if (!hosts) {
    const wanted = PACKAGE.peerDependencies.cordis
    io.stderr(`mcp-bridge: the CLI runs a Cordis host and needs cordis ${wanted}, which npm does not install with it: npm install cordis@${wanted.replace(/^[\^~]/, '')}`)
    return 1
  }
  const host = await hosts.createFileHost({
    file: command.config,
    env: io.env,
    watch: command.kind === 'watch',
    credentialsDir: credentialsDir(io.env),
    ...(io.elicitation && { elicitation: io.elicitation }),
    ...(io.sampling && { sampling: io.sampling }),
    logging: { level: command.logLevel, write: io.stderr },
  })
  try {
    switch (command.kind) {
      case 'tools': {
        io.stdout(command.json ? toolsJson(host.tools.list()) : formatTools(host.tools.list()))
        const down = unconnected(host)
        for (const line of down) io.stderr(`mcp-bridge: ${line}`)
        return host.loaded.ok && !down.length ? 0 : 1
      }
      case 'call':
        return await call(host, command, io)
      case 'watch':
        return await watch(host, io)
    }
  } finally {
    await host.dispose()
  }
}

/**
 * The host module, or undefined when cordis is not installed: it is an optional peer (a host
 * brings its own), so npm does not install it, and help, the version and usage errors must work
 * without it.
 */
async function fileHosts(): Promise<typeof import('../loader/host.ts') | undefined> {
  try {
    return await import('../loader/host.ts')
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown }
    if (code === 'ERR_MODULE_NOT_FOUND' && /'cordis'/.test(String(message))) return undefined
    throw error
  }
}

/**
 * The entries whose server is not connected once the file has loaded: checking a cordis.yml is
 * what `tools` is for, and a server that cannot start is the first thing such a check must catch.
 */
function unconnected(host: FileHost): string[] {
  return host.status.list().flatMap(({ serverName, state }) => {
    if (state.kind === 'connected') return []
    // A stopped connection has logged its reason as it stopped: say it once, there.
    const why = state.kind === 'stopped' ? 'it stopped (the log above says why)' : state.kind === 'reconnecting' ? `its first connection failed (the log above says why)` : state.kind
    return [`server "${serverName}" is not connected: ${why}`]
  })
}

async function call(host: FileHost, command: Extract<Command, { kind: 'call' }>, io: CliIo): Promise<number> {
  // A stop request during the call aborts it, so it ends as aborted rather than as a lost server.
  const interrupted = new AbortController()
  const offStop = io.onStop(() => interrupted.abort('interrupted (SIGINT or SIGTERM)'))
  let result
  try {
    result = await host.tools.execute(command.tool, command.args, { signal: interrupted.signal })
  } finally {
    offStop()
  }
  io.stdout(command.json ? resultJson(result) : formatResult(result))
  if (result.isError && result.error.code === 'UNKNOWN_TOOL') {
    const down = unconnected(host)
    if (down.length) for (const line of down) io.stderr(`mcp-bridge: ${line}`)
    else io.stderr(`mcp-bridge: no tool is named "${command.tool}"; run "mcp-bridge --config ${command.config} tools" to list them`)
  }
  return result.isError ? 1 : 0
}

/** Runs until a stop request; SIGHUP re-reads the file even when it did not change. */
async function watch(host: FileHost, io: CliIo): Promise<number> {
  const log = host.ctx.logger('mcp-bridge')
  const offReload = io.onReload(() => {
    log.info('reload requested')
    void host.loader.reload()
  })
  try {
    await new Promise<void>((resolve) => {
      const offStop = io.onStop(() => {
        offStop()
        resolve()
      })
      log.info('watching %s for changes; press Ctrl-C to stop', host.loader.file)
    })
    log.info('stopping: disposing every server')
    return 0
  } finally {
    offReload()
  }
}
