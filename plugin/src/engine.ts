import { Client as ModernClient } from '@modelcontextprotocol/client'
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import * as z from 'zod'
import { legacyShaped } from './modern-errors.ts'

/**
 * What a Session asks of the SDK client it runs on, whichever era the connection speaks: the v1
 * `Client` for legacy servers (the initialize handshake), the v2 one for modern servers (MCP
 * 2026-07-28). Errors come out in the v1 client's shapes either way (modern-errors.ts), so that
 * request-failure.ts tells them apart in one place.
 */
export interface Engine {
  request(request: { method: string; params: Record<string, unknown> }, options: EngineRequestOptions): Promise<Record<string, unknown>>
  serverInfo(): { name: string; version: string } | undefined
  capabilities(): Record<string, unknown> | undefined
  close(): Promise<void>
}

export interface EngineRequestOptions {
  signal?: AbortSignal
  timeout: number
  resetTimeoutOnProgress?: boolean
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void
}

/** Results are validated by the bridge itself, so the SDK only checks they are objects. */
const AnyObject = z.object({}).passthrough()

export function legacyEngine(client: LegacyClient): Engine {
  return {
    request: (request, options) => client.request(request, AnyObject, options),
    serverInfo: () => client.getServerVersion(),
    capabilities: () => client.getServerCapabilities(),
    close: () => client.close(),
  }
}

export function modernEngine(client: ModernClient): Engine {
  return {
    request: async (request, options) => {
      try {
        return (await client.request(request, AnyObject, options)) as Record<string, unknown>
      } catch (error) {
        throw legacyShaped(error)
      }
    },
    serverInfo: () => client.getServerVersion(),
    capabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    close: () => client.close(),
  }
}

/**
 * The v2 client as the bridge runs it, at exactly `revision` (a server that refused initialize as
 * a modern one said it speaks it; no fallback from here). It declares no capabilities: an
 * `input_required` result (the modern era's way to ask for elicitation, sampling or roots) is not
 * fulfilled but ends the call (modern-errors.ts). The server/discover it sends first waits at
 * most `probeTimeoutMs`. Tool list changes arrive through the subscription the client opens for
 * `onToolListChanged` when the server declares them.
 */
export function newModernClient(revision: string, probeTimeoutMs: number, onToolListChanged: () => void): ModernClient {
  return new ModernClient(
    { name: 'mcp-bridge', version: '0.1.0' },
    {
      capabilities: {},
      versionNegotiation: { mode: { pin: revision }, probe: { timeoutMs: probeTimeoutMs } },
      inputRequired: { autoFulfill: false },
      listChanged: { tools: { onChanged: () => onToolListChanged(), autoRefresh: false, debounceMs: 0 } },
    },
  )
}
