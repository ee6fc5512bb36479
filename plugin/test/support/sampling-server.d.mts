// Types for the tests that import the sampling server fixture (plain JavaScript so stdio can spawn it with node).
import type { McpServer } from '@modelcontextprotocol/server'
import type { McpServer as LegacyServer } from '@modelcontextprotocol/sdk/server/mcp.js'

export const SECRET: string
export function samplingParams(options?: { prompt?: string; maxTokens?: number; hint?: string; image?: boolean }): Record<string, unknown>
export function legacyFactory(): LegacyServer
export function modernFactory(): McpServer
