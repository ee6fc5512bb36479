/**
 * Pure: the constraints 2026-07-28 puts on the x-mcp-header annotations of a tool's inputSchema
 * (server/tools, x-mcp-header; basic/transports/streamable-http, schema extension, states the same
 * list, and its sentences name this check in the sentence extract).
 */
import type { ModernCheckDef } from './types.ts'

const LEAD = 'Constraints on x-mcp-header values:'

export const X_MCP_HEADER: ModernCheckDef = {
  id: 'modern/x-mcp-header',
  title: 'x-mcp-header annotations keep the constraints of the revision',
  how: 'the tools/list result: every x-mcp-header anywhere in a tool’s inputSchema is a non-empty HTTP token without control characters, unique (ignoring case) within its inputSchema, on a property whose given type is integer, string or boolean (a property with no type is not judged for it), reached from the root through properties alone',
  rules: [
    { topic: 'tools#x-mcp-header', keyword: 'MUST NOT', quote: `${LEAD} MUST NOT be empty` },
    { topic: 'tools#x-mcp-header', keyword: 'MUST', quote: `${LEAD} MUST match HTTP field-name token syntax (1*tchar, RFC 9110 Section 5.1)`, case: 'token' },
    { topic: 'tools#x-mcp-header', keyword: 'MUST NOT', quote: `${LEAD} MUST NOT contain control characters, including carriage return (CR, \\r) or line feed (LF, \\n)`, case: 'control' },
    { topic: 'tools#x-mcp-header', keyword: 'MUST', quote: `${LEAD} MUST be case-insensitively unique among all x-mcp-header values in the inputSchema`, case: 'unique' },
    { topic: 'tools#x-mcp-header', keyword: 'MUST', quote: `${LEAD} MUST only be applied to parameters with primitive types (integer, string, boolean).`, case: 'primitive' },
    { topic: 'tools#x-mcp-header', keyword: 'MUST', quote: `${LEAD} MUST only be applied to properties that are statically reachable from the schema root`, case: 'reachable' },
  ],
}
