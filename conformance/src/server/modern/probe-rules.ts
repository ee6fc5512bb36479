/**
 * Pure: the 2026-07-28 sentences the modern run judges with requests of its own past the lists
 * (./probes.ts sends them): the standard errors for bad input, the capabilities a server that
 * serves a feature must declare, the tool list's order and schemas, and the cache hints and
 * contents of resources.
 */
import { INVALID_URI, VALIDATE_URIS } from '../invalid-uri.ts'
import { REPLY } from './rules.ts'
import type { ModernCheckDef } from './types.ts'

const STANDARD = 'Servers SHOULD return standard JSON-RPC errors for common failure cases:'

export const STANDARD_ERRORS: ModernCheckDef = {
  id: 'modern/standard-errors',
  title: 'bad input gets the standard error: -32602 for an unknown prompt, missing arguments, an invalid cursor or log level',
  how: 'prompts/get of a prompt no server has (when prompts are declared), of a listed prompt with required arguments but without them, completion/complete for a prompt no server has and without its argument (when completions are declared), tools/list with a cursor the server never issued (when tools are declared), and server/discover whose _meta sets io.modelcontextprotocol/logLevel to a level that does not exist: each answer is error -32602',
  rules: [
    { topic: 'prompts#error-handling', keyword: 'SHOULD', quote: `${STANDARD} Invalid prompt name: -32602 (Invalid params)`, case: 'prompt-name' },
    { topic: 'prompts#error-handling', keyword: 'SHOULD', quote: `${STANDARD} Missing required arguments: -32602 (Invalid params)`, case: 'prompt-arguments' },
    { topic: 'prompts#implementation-considerations', keyword: 'SHOULD', quote: 'Servers SHOULD validate prompt arguments before processing', case: 'prompt-arguments' },
    { topic: 'completion#error-handling', keyword: 'SHOULD', quote: `${STANDARD} Invalid prompt name: -32602 (Invalid params)`, case: 'completion-name' },
    { topic: 'completion#error-handling', keyword: 'SHOULD', quote: `${STANDARD} Missing required arguments: -32602 (Invalid params)`, case: 'completion-arguments' },
    { topic: 'pagination#error-handling', keyword: 'SHOULD', quote: 'Invalid cursors SHOULD result in an error with code -32602 (Invalid params).', case: 'cursor' },
    { topic: 'pagination#implementation-guidelines', keyword: 'SHOULD', quote: 'Servers SHOULD: Handle invalid cursors gracefully', case: 'cursor-graceful' },
    {
      topic: 'logging#error-handling',
      keyword: 'SHOULD',
      quote: "If the io.modelcontextprotocol/logLevel value carried in a request's _meta is not a recognized log level, the server SHOULD reject that request with a standard JSON-RPC error: Invalid log level: -32602 (Invalid params)",
      case: 'log-level',
    },
  ],
}

export const CAPABILITY_DECLARED: ModernCheckDef = {
  id: 'modern/capability-declared',
  title: 'a feature the server serves is declared in its capabilities',
  how: 'tools/list, prompts/list and resources/list for each of them the DiscoverResult does not declare (the requests modern/method-not-found sends), and completion/complete when completions are not declared: a result listing entries, or any completion result, is a feature served without its capability; an error or an empty list is not',
  rules: [
    { topic: 'tools#capabilities', keyword: 'MUST', quote: 'Servers that support tools MUST declare the tools capability:', case: 'tools' },
    { topic: 'resources#capabilities', keyword: 'MUST', quote: 'Servers that support resources MUST declare the resources capability:', case: 'resources' },
    { topic: 'prompts#capabilities', keyword: 'MUST', quote: 'Servers that support prompts MUST declare the prompts capability in their DiscoverResult:', case: 'prompts' },
    { topic: 'completion#capabilities', keyword: 'MUST', quote: 'Servers that support completions MUST declare the completions capability:', case: 'completions' },
    { topic: 'completion#error-handling', keyword: 'SHOULD', quote: `${STANDARD} Method not found: -32601 (Capability not supported)`, case: 'completion-code' },
  ],
}

export const TOOL_LIST: ModernCheckDef = {
  id: 'modern/tool-list',
  title: 'the tool list keeps its order, and every inputSchema is a valid JSON Schema object',
  how: 'tools/list twice, when tools are declared: the same set of names comes back in the same order; each tool’s inputSchema is an object (not null) that its declared dialect’s meta-schema accepts (2020-12 when it names none), and names 2020-12 if it names a dialect at all',
  rules: [
    { topic: 'tools#tool', keyword: 'MUST', quote: 'MUST be a valid JSON Schema object (not null)', case: 'object' },
    { topic: 'basic#schema-validation', keyword: 'MUST', quote: 'Schemas MUST be valid according to their declared or default dialect', case: 'valid' },
    { topic: 'basic#schema-dialect', keyword: 'SHOULD', quote: 'Recommendation: Implementors are RECOMMENDED to use JSON Schema 2020-12.', case: 'dialect' },
    { topic: 'tools#capabilities', keyword: 'SHOULD', quote: 'Servers SHOULD return tools in a deterministic order (i.e., the same ordering across requests when the underlying set of tools has not changed).', case: 'order' },
  ],
  note: 'RECOMMENDED is read as SHOULD (RFC 2119 gives them one meaning).',
}

export const RESOURCE_READ: ModernCheckDef = {
  id: 'modern/resource-read',
  title: 'resource URIs are URIs, a read of no URI is refused, and reading one or the templates carries cache hints and well-encoded blobs',
  how: `when resources are declared: every URI of resources/list is an RFC 3986 URI (a scheme, then “:”); resources/read of ${JSON.stringify(INVALID_URI)} (no scheme, raw spaces) is refused with any JSON-RPC error; resources/read of the first listed resource and resources/templates/list each answer with ttlMs and cacheScope; every blob of the contents read is base64`,
  rules: [
    { topic: 'caching#cacheable-results', keyword: 'MUST', quote: 'Servers MUST include caching hints on results with resultType: "complete" returned by the following operations: resources/templates/list', case: 'templates' },
    { topic: 'caching#cacheable-results', keyword: 'MUST', quote: 'Servers MUST include caching hints on results with resultType: "complete" returned by the following operations: resources/read', case: 'read' },
    { topic: 'resources#security-considerations', keyword: 'MUST', quote: 'Binary data MUST be properly encoded', case: 'blob' },
    { topic: 'resources#custom-uri-schemes', keyword: 'MUST', quote: 'Custom URI schemes MUST be in accordance with RFC3986, taking the above guidance in to account.', case: 'uri' },
    { topic: 'resources#security-considerations', keyword: 'MUST', quote: VALIDATE_URIS, case: 'validate' },
    REPLY,
  ],
  note: 'A read or template list answered with an error is not judged here: the resource may need what the kit does not hold.',
}
