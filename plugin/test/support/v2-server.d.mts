// Types for the tests that import the v2 SDK server fixture (plain JavaScript so stdio can spawn it with node).
import type { McpServer } from '@modelcontextprotocol/server'
import type { McpServer as LegacyServer } from '@modelcontextprotocol/sdk/server/mcp.js'

export function factory(): McpServer
export function legacyFactory(): LegacyServer
export const FAULTS: Record<string, string>
export function startV2Http(options?: { legacy?: 'stateless' | 'reject'; fault?: string }): Promise<{ url: string; seen: Map<string, number>; close: () => Promise<void> }>
