/** What a server run points at, and the built-in default target. */
import { createRequire } from 'node:module'
import { redactSecrets } from '@mcp-bridge/process'
import type { ToolCall } from './probe/tools.ts'

export type ServerTarget =
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string> }

/** How reports name the target: without URL credentials or query, with secret-shaped args redacted. */
export function describeTarget(target: ServerTarget): string {
  if (target.kind === 'http') {
    const url = new URL(target.url)
    url.username = url.password = url.search = ''
    return url.href
  }
  return redactSecrets([target.command, ...target.args].map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' '))
}

/**
 * server-everything over stdio, started with this Node binary (never through npx), and the calls
 * the default run is allowed to make: a plain tool, a tool with an outputSchema, and the
 * task-only tool (which must refuse a plain call).
 */
export function everythingTarget(): { target: ServerTarget; calls: ToolCall[] } {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
  return {
    target: { kind: 'stdio', command: process.execPath, args: [entry, 'stdio'] },
    calls: [
      { name: 'echo', arguments: { message: 'hello from mcp-conformance' } },
      { name: 'get-structured-content', arguments: { location: 'New York' } },
      { name: 'simulate-research-query', arguments: { topic: 'conformance' } },
    ],
  }
}
