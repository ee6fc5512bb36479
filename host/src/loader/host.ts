import type { SignalOptions } from '@mcp-bridge/process'
import * as bridge from '@mcp-bridge/plugin'
import type { McpAuthService, McpElicitationService, McpSamplingService } from '@mcp-bridge/plugin'
import { fileCredentialStore } from '../credentials.ts'
import { createHost, stopOnSignals, type Host } from '../host.ts'
import type { ConsoleLoggerOptions } from '../logging.ts'
import { createLoader, type ConfigLoader, type LoaderOptions } from './loader.ts'
import { BRIDGE_PACKAGE } from './names.ts'
import type { ReloadResult } from './types.ts'

export interface FileHostOptions extends LoaderOptions {
  /** Console logging (stderr by default); `false` attaches none. */
  logging?: ConsoleLoggerOptions | false
  /** As in createHost: SIGINT/SIGTERM dispose the host and exit 130/143, unless `false`. */
  signals?: SignalOptions | false
  /**
   * Where `mcp-bridge login` stored OAuth credentials (credentials.ts): the host offers them to
   * the bridge as the `mcpAuth` service. Absent: credentials live as long as a connection.
   */
  credentialsDir?: string
  /**
   * How a person signs in (McpAuthService.signIn): handed the authorization URL of a server
   * configured with `auth.type: authorization_code`. Absent: a headless host, which refuses.
   */
  signIn?: McpAuthService['signIn']
  /**
   * How a person answers a server's questions (the `mcpElicitation` service; the CLI's is
   * terminalElicitation). Absent: servers are offered no elicitation.
   */
  elicitation?: McpElicitationService
  /**
   * The host's model for servers configured with `sampling.enabled` (the `mcpSampling` service;
   * the CLI's is terminalSampling). Absent: servers are offered no sampling.
   */
  sampling?: McpSamplingService
}

export interface FileHost extends Host {
  loader: ConfigLoader
  /** The result of the first load. */
  loaded: ReloadResult
}

/**
 * A Cordis root with the reference `tools` service, running the entries of a cordis.yml file.
 * Entries need not list the `tools` service: the host provides it before any entry starts.
 */
export async function createFileHost(options: FileHostOptions): Promise<FileHost> {
  // Signals are taken below, once the entries are part of what a signal disposes.
  const host = await createHost({ logging: options.logging, signals: false })
  if (options.credentialsDir || options.signIn) {
    const service: McpAuthService = {
      ...(options.credentialsDir && { credentials: fileCredentialStore(options.credentialsDir) }),
      ...(options.signIn && { signIn: options.signIn }),
    }
    host.ctx.provide('mcpAuth')
    host.ctx.set('mcpAuth', service)
  }
  if (options.elicitation) {
    host.ctx.provide('mcpElicitation')
    host.ctx.set('mcpElicitation', options.elicitation)
  }
  if (options.sampling) {
    host.ctx.provide('mcpSampling')
    host.ctx.set('mcpSampling', options.sampling)
  }
  // The bridge is handed over as this very module instance, so that the host and the entries it
  // runs share one copy of the plugin whatever the resolver would pick for the package name.
  const loader = createLoader(host.ctx, { ...options, plugins: { [BRIDGE_PACKAGE]: bridge, ...options.plugins } })
  const loaded = await loader.ready
  return stopOnSignals(
    {
      ...host,
      loader,
      loaded,
      // Entries first, while the tools service they registered on still exists.
      dispose: async () => {
        await loader.dispose()
        await host.dispose()
      },
    },
    options.signals,
  )
}
