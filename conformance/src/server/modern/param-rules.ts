/**
 * Pure: the 2026-07-28 sentences on how a server treats Mcp-Param-{Name} headers, judged by
 * ./param-judge.ts on the tool calls the run was allowed to make (--call), over Streamable HTTP.
 */
import type { ModernCheckDef } from './types.ts'

export const PARAM_HEADERS: ModernCheckDef = {
  id: 'modern/param-headers',
  title: 'Mcp-Param headers: not expected for a parameter the call leaves out, and refused with invalid characters',
  how: 'each --call over HTTP carries an Mcp-Param-{Name} header for every x-mcp-header parameter its arguments give a value (encoded as the revision says), and none for one they leave out or set to null: such a call refused with -32020 (HeaderMismatch) was refused for a header it had to omit. Then the first --call that carried such a header and was not refused is sent once more with that header’s value ending in "é" (the byte 0xE9, no visible ASCII character): anything but a refusal (an HTTP error status or a JSON-RPC error) serves a header with invalid characters. Over stdio there are no headers: not testable',
  rules: [
    { topic: 'streamable-http#custom-headers', keyword: 'MUST', quote: 'Servers MUST reject requests with a recognized Mcp-Param-{Name} header that contains invalid characters (see Value Encoding).', case: 'invalid' },
    { topic: 'streamable-http#custom-headers', keyword: 'MUST NOT', quote: 'Server MUST NOT expect the header', case: 'omitted' },
  ],
  note: 'The sentence on a header left out names two cases of the page’s table (a parameter whose value is null, and one not in the arguments), and states the same words for each.',
}

export const PARAM_NUMERIC: ModernCheckDef = {
  id: 'modern/param-numeric',
  title: 'an integer Mcp-Param header is compared with the body as a number',
  how: 'over HTTP, the first --call that carried an Mcp-Param-{Name} header for a parameter its inputSchema types integer (with an integer value) and was not refused is sent once more with that header written with a fractional zero ("42.0" for 42): a refusal with -32020 (HeaderMismatch) compared the two as strings. Over stdio there are no headers: not testable',
  rules: [
    {
      topic: 'streamable-http#server-validation',
      keyword: 'SHOULD',
      quote: 'When validating integer parameter values, servers SHOULD compare the header value and the body value numerically rather than as strings (e.g., 42.0 and 42 are considered equal).',
    },
  ],
}
