/**
 * Pure: the 2026-07-28 sentences on what a tool call returns and on the input it accepts, judged
 * on the calls the run was allowed to make (--call) by ./calls.ts. Their wording is the one the
 * legacy --call checks quote, whose verdicts ./calls.ts reuses.
 */
import type { ModernCheckDef } from './types.ts'

export const TOOL_CALL: ModernCheckDef = {
  id: 'modern/tool-call',
  title: 'a tool call’s result conforms to the tool’s outputSchema, and arguments that break its inputSchema are refused',
  how: 'each --call the modern way (a resultType "input_required" answer is not judged here): the result is judged as the legacy tools/call/{name} checks judge it (structuredContent against the outputSchema, a text block carrying it, an embedded resource from a server that does not declare resources); then the first --call tool whose inputSchema the kit can violate is called once more with arguments that schema rejects (checked with the validator first): an isError result or a JSON-RPC error is a refusal, a success is not',
  rules: [
    { topic: 'tools#output-schema', keyword: 'MUST', quote: 'Servers MUST provide structured results that conform to this schema.', case: 'output-schema' },
    { topic: 'tools#structured-content', keyword: 'SHOULD', quote: 'For backwards compatibility, a tool that returns structured content SHOULD also return the serialized JSON in a TextContent block.', case: 'text-block' },
    { topic: 'tools#embedded-resources', keyword: 'SHOULD', quote: 'Servers that use embedded resources SHOULD implement the resources capability:', case: 'embedded' },
    { topic: 'tools#security-considerations', keyword: 'MUST', quote: 'Servers MUST: Validate all tool inputs', case: 'invalid-arguments' },
  ],
}
