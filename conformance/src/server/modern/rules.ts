/**
 * Pure: the checks of a modern server's requests past server/discover (the base protocol's
 * envelope and _meta rules, the removed and undeclared methods, the Streamable HTTP header and
 * Origin rules, the lists its capabilities promise), each with the 2026-07-28 sentence it enforces.
 * Kept apart from registry.ts, which holds the checks of era detection and discovery.
 */
import type { ModernCheckDef, ModernRule } from './types.ts'

/** A request that gets no answer at all (JSON-RPC 2.0, which every MCP message follows). */
export const REPLY: ModernRule = {
  topic: 'jsonrpc#response-object',
  keyword: 'MUST',
  quote: 'When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.',
  case: 'reply',
}

export const RESULT_TYPE: ModernCheckDef = {
  id: 'modern/result-type',
  title: 'every result carries resultType',
  how: 'every result the modern run received (server/discover, the lists, every probe below that got one): its resultType is a string, one the core protocol defines ("complete" or "input_required": the kit’s requests declare no extension, so a server with one reverts to core behaviour), and never "input_required" (none of these requests is one that may ask for input)',
  rules: [
    { topic: 'basic#result-responses', keyword: 'MUST', quote: 'The result MUST include a resultType field to indicate the type of the result.' },
    { topic: 'mrtr#supported-requests', keyword: 'MUST NOT', quote: 'Servers MUST NOT send InputRequiredResult responses on any other client requests.', case: 'input-required' },
    {
      topic: 'basic#resulttype',
      keyword: 'MUST',
      quote: 'The set of supported ResultType values MUST be created from the set defined in the core protocol and include any additional values of supported extensions that are advertised via capabilities.',
      case: 'unknown',
    },
    {
      topic: 'versioning#extension-negotiation',
      keyword: 'MUST',
      quote: 'If one party supports an extension but the other does not, the supporting party MUST either revert to core protocol behavior or reject the request with an appropriate error.',
      case: 'extension',
    },
  ],
}

export const ERROR_ID: ModernCheckDef = {
  id: 'modern/error-id',
  title: 'every error response carries the id of its request',
  how: 'every JSON-RPC error the modern run received for a well-formed request (the Origin probe aside, whose 403 body may have no id): its id is the request’s',
  rules: [
    {
      topic: 'basic#error-responses',
      keyword: 'MUST',
      quote: 'Error responses MUST include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).',
    },
  ],
}

export const META_REQUIRED: ModernCheckDef = {
  id: 'modern/meta-required',
  title: 'a request without a required _meta field is rejected with -32602',
  how: 'server/discover whose _meta has protocolVersion and clientInfo but no clientCapabilities (required): the answer is error -32602 Invalid params, over HTTP with status 400',
  rules: [
    { topic: 'basic#meta', keyword: 'MUST', quote: 'A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code -32602 (Invalid params).' },
    {
      topic: 'basic#meta',
      keyword: 'MUST',
      quote: 'A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code -32602 (Invalid params). On HTTP, the response status MUST be 400 Bad Request.',
      case: 'http-status',
    },
    REPLY,
  ],
}

export const CLIENT_INFO_OPTIONAL: ModernCheckDef = {
  id: 'modern/client-info-optional',
  title: 'a request without clientInfo is served',
  how: 'server/discover whose _meta has protocolVersion and clientCapabilities but no clientInfo, which the revision marks not required: the answer is a result',
  rules: [
    {
      topic: 'basic#meta',
      keyword: 'NONE',
      quote: 'Per-request protocol fields: io.modelcontextprotocol/clientInfo | Implementation | Required: No | Client name and version',
    },
    REPLY,
  ],
}

export const METHOD_NOT_FOUND: ModernCheckDef = {
  id: 'modern/method-not-found',
  title: 'a method the server does not implement: -32601, over HTTP with 404',
  how: 'the methods 2026-07-28 removed (ping, logging/setLevel, resources/subscribe, resources/unsubscribe) and the list methods of capabilities the DiscoverResult does not declare, each with the modern _meta; a result is never a breach (a server may still serve them), an answer that says "not implemented" (-32601 or HTTP 404) must say it both ways over HTTP',
  rules: [
    {
      topic: 'streamable-http#protocol-version-header',
      keyword: 'MUST',
      quote: 'If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with code -32601 (Method not found).',
      case: 'http',
    },
    { topic: 'jsonrpc#response-object', keyword: 'NONE', quote: '-32601 Method not found: The method does not exist / is not available.', case: 'code' },
    REPLY,
  ],
}

export const HEADER_MISMATCH: ModernCheckDef = {
  id: 'modern/header-mismatch',
  title: 'headers that contradict the body are rejected with 400 and HeaderMismatch',
  how: 'over HTTP, server/discover with an Mcp-Method header of tools/list, and server/discover whose MCP-Protocol-Version header names another revision than its _meta: each answer is HTTP 400 with error -32020',
  rules: [
    {
      topic: 'streamable-http#server-validation',
      keyword: 'MUST',
      quote: 'Servers that process the request body MUST reject requests where the values specified in the headers do not match the corresponding values in the request body.',
    },
    {
      topic: 'streamable-http#custom-headers',
      keyword: 'MUST',
      quote: 'Servers MUST reject requests with a 400 Bad Request HTTP status and JSON-RPC error code -32020 (HeaderMismatch) if any validation fails.',
      case: 'code',
    },
    {
      topic: 'streamable-http#protocol-version-header',
      keyword: 'MUST',
      quote: 'If the values do not match, the server MUST reject the request with 400 Bad Request and a HeaderMismatch JSON-RPC error (see Server Validation).',
      case: 'version',
    },
    REPLY,
  ],
  note: 'A version mismatch answered with 400 and UnsupportedProtocolVersionError is information: the header names a version the server does not speak, and the revision does not order the two validations.',
}

export const ORIGIN: ModernCheckDef = {
  id: 'modern/origin',
  title: 'a foreign Origin is refused with 403 (DNS rebinding)',
  how: 'over HTTP, server/discover with Origin: http://evil.example: the answer is HTTP 403',
  rules: [
    {
      topic: 'streamable-http#security',
      keyword: 'MUST',
      quote:
        'Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks. If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden.',
    },
  ],
}

const LIST_SHAPE = 'ListToolsResult, ListPromptsResult, ListResourcesResult extend PaginatedResult, CacheableResult { tools | prompts | resources: array; ttlMs: number (minimum 0); cacheScope: "public" | "private" }'

export const LISTS: ModernCheckDef = {
  id: 'modern/lists',
  title: 'each declared feature’s list is served, with cache hints',
  how: 'tools/list, prompts/list and resources/list for each of tools, prompts and resources the DiscoverResult declares: a result whose list is an array, with its caching hints (ttlMs ≥ 0, cacheScope "public" or "private")',
  rules: [
    { topic: 'tools#capabilities', keyword: 'MUST', quote: 'Servers that declare the tools capability MUST respond to tools/list requests with the set of tools currently available to the requesting client.', case: 'tools' },
    { topic: 'prompts#capabilities', keyword: 'MUST', quote: 'Servers that declare the prompts capability MUST respond to prompts/list requests with the set of prompts currently available to the requesting client.', case: 'prompts' },
    { topic: 'resources#capabilities', keyword: 'MUST', quote: 'Servers that declare the resources capability MUST respond to resources/list requests with the set of resources currently available to the requesting client.', case: 'resources' },
    {
      topic: 'caching#cacheable-results',
      keyword: 'MUST',
      quote: 'Servers MUST include caching hints on results with resultType: "complete" returned by the following operations: tools/list; prompts/list; resources/list',
      case: 'hints',
    },
    { topic: 'caching#ttl', keyword: 'MUST', quote: 'Servers MUST provide a ttlMs value that is >= 0.', case: 'ttl' },
    { topic: 'schema', keyword: 'SCHEMA', quote: LIST_SHAPE, case: 'shape' },
  ],
}

export const LISTEN: ModernCheckDef = {
  id: 'modern/subscriptions-listen',
  title: 'subscriptions/listen is acknowledged first, under the subscription’s id',
  how: 'over HTTP, subscriptions/listen asking for toolsListChanged; the stream is read until its first message (bounded by the request timeout): notifications/subscriptions/acknowledged whose _meta io.modelcontextprotocol/subscriptionId is the request’s id, agreeing to no notification type beyond toolsListChanged (the filter it acknowledges is what the stream will carry; the kit reads no further, and can make no list change). An error answer (a server without subscriptions) is not judged',
  rules: [
    {
      topic: 'subscriptions#acknowledgment',
      keyword: 'MUST NOT',
      quote:
        "The server MUST send notifications/subscriptions/acknowledged as the first message carrying the subscription's ID in _meta under io.modelcontextprotocol/subscriptionId, and MUST NOT send any notification on the subscription before it.",
    },
    {
      topic: 'basic#meta',
      keyword: 'MUST',
      quote: 'On notifications delivered via a subscriptions/listen stream, the server MUST include io.modelcontextprotocol/subscriptionId in _meta so the client can correlate the notification with the originating subscription request.',
      case: 'id',
    },
    { topic: 'subscriptions#opening-a-stream', keyword: 'MUST NOT', quote: 'The server MUST NOT send notification types the client has not explicitly requested.', case: 'unrequested' },
  ],
}

export const TOOL_NAMES: ModernCheckDef = {
  id: 'modern/tool-names',
  title: 'tool names are 1 to 128 characters of A-Z, a-z, 0-9, _, - and ., each listed once',
  how: 'the names of the first page of tools/list, when tools are declared (a character outside that set is one of the “special characters” names SHOULD NOT contain)',
  rules: [
    {
      topic: 'tools#tool-names',
      keyword: 'SHOULD',
      quote:
        'Tool names SHOULD be between 1 and 128 characters in length (inclusive). The following SHOULD be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)',
    },
    { topic: 'tools#tool-names', keyword: 'SHOULD', quote: 'Tool names SHOULD be unique within a server.', case: 'unique' },
  ],
}

export const RESOURCE_MISSING: ModernCheckDef = {
  id: 'modern/resource-missing',
  title: 'reading a resource that does not exist is error -32602, never empty contents',
  how: 'resources/read of a URI no server holds (mcp-conformance://missing/…), when resources are declared',
  rules: [
    { topic: 'resources#error-handling', keyword: 'MUST', quote: 'If the requested resource does not exist, servers MUST return a JSON-RPC error with code -32602 (Invalid Params).' },
    { topic: 'resources#error-handling', keyword: 'MUST NOT', quote: 'Servers MUST NOT return an empty contents array for a non-existent resource.', case: 'empty' },
    REPLY,
  ],
}

export const INPUT_REQUIRED: ModernCheckDef = {
  id: 'modern/input-required',
  title: 'an InputRequiredResult carries what the retry needs, and asks only for what the client declared',
  how: 'each tool call the run may make (--call), the modern way (over HTTP with Mcp-Name); when the answer is resultType "input_required": it has inputRequests or requestState, and no inputRequests at all, since the kit’s clientCapabilities declare nothing (each one that is there must still be an elicitation/create, sampling/createMessage or roots/list request). Never retried: the kit answers no input',
  rules: [
    { topic: 'mrtr#server-requirements', keyword: 'MUST NOT', quote: 'Servers MUST NOT send an inputRequests that the client has not declared support for in its capabilities.' },
    { topic: 'mrtr#server-requirements', keyword: 'MUST', quote: 'Servers MUST include at least one of inputRequests or requestState in every InputRequiredResult response.', case: 'empty' },
    {
      topic: 'mrtr#server-requirements',
      keyword: 'MUST NOT',
      quote: 'For example, if a client does not declare support for elicitation, the server MUST NOT include any elicitation/create requests in the inputRequests field.',
      // The example of the sentence above: the first rule without a case governs the verdict.
    },
    { topic: 'mrtr#server-requirements', keyword: 'MUST', quote: 'inputRequests values are request objects that MUST be one of ElicitRequest, CreateMessageRequest, or ListRootsRequest', case: 'kind' },
    REPLY,
  ],
}

/** In the order the docs list them. */
export const REQUEST_CHECKS: readonly ModernCheckDef[] = [RESULT_TYPE, ERROR_ID, META_REQUIRED, CLIENT_INFO_OPTIONAL, METHOD_NOT_FOUND, HEADER_MISMATCH, ORIGIN, LISTS, TOOL_NAMES, RESOURCE_MISSING, LISTEN, INPUT_REQUIRED]
