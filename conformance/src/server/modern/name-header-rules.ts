/**
 * Pure: how a 2026-07-28 server must validate the Mcp-Name header of a request that names a
 * resource or prompt (basic/transports/streamable-http, Standard Request Headers, Value Encoding,
 * Server Behavior for Custom Headers). Judged in ./name-header.ts.
 */
import { REPLY } from './rules.ts'
import type { ModernCheckDef } from './types.ts'

export const NAME_HEADER: ModernCheckDef = {
  id: 'modern/name-header',
  title: 'Mcp-Name is validated against the body, after Base64 decoding, and required',
  how: 'over HTTP, resources/read of the first listed resource whose URI is plain visible ASCII (else prompts/get of the first listed prompt without required arguments) four times: with a correct Mcp-Name (the control), with an Mcp-Name naming something else, with none, and with the correct value in the =?base64?…?= sentinel. The wrong and the missing header must get HTTP 400 with error -32020; the encoded one must be served as the control was. The kit sends header names in lowercase (mcp-name), so a server that recognises it compares names case-insensitively',
  rules: [
    {
      topic: 'streamable-http#custom-headers',
      keyword: 'MUST',
      quote: 'Any server that processes the message body MUST validate that encoded header values, after decoding if Base64-encoded, match the corresponding values in the request body.',
    },
    { topic: 'streamable-http#custom-headers', keyword: 'MUST', quote: 'Parameter value provided … Server MUST validate header matches body' },
    {
      topic: 'streamable-http#custom-headers',
      keyword: 'MUST',
      quote: 'Servers MUST reject requests with a 400 Bad Request HTTP status and JSON-RPC error code -32020 (HeaderMismatch) if any validation fails.',
      case: 'code',
    },
    { topic: 'streamable-http#custom-headers', keyword: 'MUST', quote: 'Client omits header but value is in body … Server MUST reject the request', case: 'missing' },
    {
      topic: 'streamable-http#value-encoding',
      keyword: 'MUST',
      quote: 'In particular, servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing it to the corresponding request body value during Server Validation.',
      case: 'base64',
    },
    { topic: 'streamable-http#value-encoding', keyword: 'MUST', quote: 'Servers and intermediaries that need to inspect these values MUST decode them accordingly.', case: 'base64' },
    {
      topic: 'streamable-http#server-validation',
      keyword: 'MUST',
      quote:
        'Validation failure conditions include: … For headers that permit the Base64 sentinel encoding (Mcp-Name and Mcp-Param-{Name}), servers MUST decode encoded values (see Value Encoding) before comparing them to the body value.',
      case: 'base64',
    },
    REPLY,
  ],
  note: 'Only a probe whose control (the correct header) is served is judged: a server that refuses even that cannot be told to validate the header. Mcp-Param-{Name} headers need a tool call and are not sent here.',
}
