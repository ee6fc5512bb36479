/** Resources, prompts, completion and logging: declared → exercised, undeclared → not served. */
import type { Revision } from '../spec.ts'
import { INVALID_URI, VALIDATE_URIS } from '../invalid-uri.ts'
import { UNKNOWN_LEVEL } from '../unknown-inputs.ts'
import { PAGINATION_HOW, REPLY, rule, STABLE_CURSORS, type CheckDef, type Rule } from './rules.ts'

/**
 * The capability was declared, so its method is there to be used. The sentence that says so states
 * no keyword, so a JSON-RPC error from the method is information; a result is still judged by its
 * schema (the `shape` case) and no answer at all by JSON-RPC (the `reply` case).
 */
const CAPABILITY_NEGOTIATION = 'Client and server capabilities establish which optional protocol features will be available during the session.'
const declared = (from: Revision = '2024-11-05'): Rule => rule(from, 'lifecycle#capability-negotiation', 'NONE', CAPABILITY_NEGOTIATION)

/** What resources/subscribe, resources/unsubscribe and logging/setLevel return. */
const EMPTY_RESULT = rule('2024-11-05', 'schema', 'SCHEMA', 'EmptyResult = Result; Result { _meta?: { [key: string]: unknown }; [key: string]: unknown }', 'shape')

/** The error-handling sentence of the prompts and completion pages, which -32602 follows. */
const INVALID_PARAMS = 'Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid prompt name: -32602 (Invalid params); Missing required arguments: -32602 (Invalid params)'

export const RESOURCES_UNDECLARED: CheckDef = {
  id: 'resources/undeclared',
  title: 'resources are not served without the resources capability',
  scope: 'server',
  how: 'only when resources is not declared: resources/list, which must not list resources',
  rules: [rule('2024-11-05', 'resources#capabilities', 'MUST', 'Servers that support resources MUST declare the resources capability'), REPLY],
}

export const RESOURCES_LIST: CheckDef = {
  id: 'resources/list',
  title: 'resources/list returns a well-formed list',
  scope: 'server',
  how: 'every page, validated with the SDK’s ListResourcesResultSchema as the negotiated revision defines it (see “Result shapes by revision”)',
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', 'ListResourcesResult { resources: Resource[] }; Resource { uri: string; name: string; … }'), REPLY],
}

export const RESOURCES_PAGINATION: CheckDef = {
  id: 'resources/pagination',
  title: 'resources/list pagination ends',
  scope: 'server',
  how: PAGINATION_HOW,
  rules: [STABLE_CURSORS],
}

export const RESOURCES_URI_SYNTAX: CheckDef = {
  id: 'resources/uri-syntax',
  title: 'listed resource URIs with a custom scheme follow RFC 3986',
  scope: 'server',
  how: 'the uri of every listed resource whose scheme is not one of the page’s common schemes (https, file, git) or http: after its scheme only the characters RFC 3986 allows (unreserved, reserved, and %XX percent-encodings); a uri without a scheme is not judged here',
  rules: [rule('2025-06-18', 'resources#custom-uri-schemes', 'MUST', 'Custom URI schemes MUST be in accordance with RFC3986, taking the above guidance in to account.')],
}

export const RESOURCES_READ: CheckDef = {
  id: 'resources/read',
  title: 'resources/read of a listed resource returns its contents',
  scope: 'server',
  how: 'resources/read of the first listed resource; the result validated with the SDK’s ReadResourceResultSchema as the negotiated revision defines it (see “Result shapes by revision”): contents with a uri and text or blob each. A JSON-RPC error is information: -32002 is the code the spec gives for a resource not found, any other error breaks no sentence with a keyword',
  rules: [
    declared(),
    rule('2024-11-05', 'schema', 'SCHEMA', 'ReadResourceResult { contents: (TextResourceContents | BlobResourceContents)[] }', 'shape'),
    rule('2024-11-05', 'resources#error-handling', 'SHOULD', 'Servers SHOULD return standard JSON-RPC errors for common failure cases: Resource not found: -32002', 'not-found'),
    REPLY,
  ],
}

export const RESOURCES_INVALID_URI: CheckDef = {
  id: 'resources/invalid-uri',
  title: 'resources/read of a string that is no URI is refused',
  scope: 'server',
  how: `resources/read of ${JSON.stringify(INVALID_URI)} (no scheme, raw spaces: RFC 3986 allows neither) when resources is declared: any JSON-RPC error passes; a result, whatever it holds, fails`,
  rules: [rule('2024-11-05', 'resources#security-considerations', 'MUST', VALIDATE_URIS), REPLY],
}

export const RESOURCE_TEMPLATES: CheckDef = {
  id: 'resources/templates-list',
  title: 'resources/templates/list returns well-formed templates',
  scope: 'server',
  how: 'resources/templates/list when resources is declared, validated with the SDK’s ListResourceTemplatesResultSchema as the negotiated revision defines it (see “Result shapes by revision”); -32601 is allowed, templates are optional; any other JSON-RPC error is information (capability negotiation states no keyword)',
  rules: [declared(), rule('2024-11-05', 'schema', 'SCHEMA', 'ListResourceTemplatesResult { resourceTemplates: ResourceTemplate[] }; ResourceTemplate { uriTemplate: string; name: string; … }', 'shape'), REPLY],
}

export const RESOURCES_SUBSCRIBE: CheckDef = {
  id: 'resources/subscribe',
  title: 'resources/subscribe and unsubscribe are served when subscribe is declared',
  scope: 'server',
  how: 'only with resources.subscribe: true: resources/subscribe, then resources/unsubscribe, of the first listed resource; a JSON-RPC error is information (the sentence that declares subscriptions states no keyword)',
  rules: [rule('2024-11-05', 'resources#capabilities', 'NONE', 'subscribe: whether the client can subscribe to be notified of changes to individual resources.'), EMPTY_RESULT, REPLY],
}

export const PROMPTS_UNDECLARED: CheckDef = {
  id: 'prompts/undeclared',
  title: 'prompts are not served without the prompts capability',
  scope: 'server',
  how: 'only when prompts is not declared: prompts/list, which must not list prompts',
  rules: [rule('2024-11-05', 'prompts#capabilities', 'MUST', 'Servers that support prompts MUST declare the prompts capability during initialization'), REPLY],
}

export const PROMPTS_LIST: CheckDef = {
  id: 'prompts/list',
  title: 'prompts/list returns a well-formed list',
  scope: 'server',
  how: 'every page, validated with the SDK’s ListPromptsResultSchema as the negotiated revision defines it (see “Result shapes by revision”)',
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', 'ListPromptsResult { prompts: Prompt[] }; Prompt { name: string; arguments?: PromptArgument[] }'), REPLY],
}

export const PROMPTS_PAGINATION: CheckDef = {
  id: 'prompts/pagination',
  title: 'prompts/list pagination ends',
  scope: 'server',
  how: PAGINATION_HOW,
  rules: [STABLE_CURSORS],
}

export const PROMPTS_GET: CheckDef = {
  id: 'prompts/get',
  title: 'prompts/get of a listed prompt returns messages',
  scope: 'server',
  how: 'prompts/get of a listed prompt, preferring one without required arguments (sent without "arguments"); required arguments get values from completion/complete when declared, else a value built from the argument name; -32602 for such a value is the answer the spec asks for; a JSON-RPC error, refusing a prompt without "arguments" included, is information (capability negotiation states no keyword); the result validated with the SDK’s GetPromptResultSchema as the negotiated revision defines it (see “Result shapes by revision”)',
  rules: [
    declared(),
    rule('2024-11-05', 'schema', 'SCHEMA', 'GetPromptResult { messages: PromptMessage[] }; PromptMessage { role: Role; content: TextContent | ImageContent | EmbeddedResource }', 'shape', '2024-11-05'),
    rule('2025-03-26', 'schema', 'SCHEMA', 'GetPromptResult { messages: PromptMessage[] }; PromptMessage { role: Role; content: TextContent | ImageContent | AudioContent | EmbeddedResource }', 'shape', '2025-03-26'),
    rule('2025-06-18', 'schema', 'SCHEMA', 'GetPromptResult { messages: PromptMessage[] }; PromptMessage { role: Role; content: ContentBlock }', 'shape'),
    rule('2024-11-05', 'prompts#error-handling', 'SHOULD', INVALID_PARAMS, 'invalid-params'),
    // The schema leaves mimeType optional; the prompts page's prose requires it of an embedded resource.
    rule('2024-11-05', 'prompts#embedded-resources', 'MUST', 'Resources can contain either text or binary (blob) data and MUST include: The appropriate MIME type', 'mime-type'),
    REPLY,
  ],
}

export const COMPLETIONS_UNDECLARED: CheckDef = {
  id: 'completion/undeclared',
  title: 'completion/complete is not served without the completions capability',
  scope: 'server',
  how: 'only when completions is not declared, and there is a prompt argument or a template to complete: completion/complete, which must not return values',
  rules: [rule('2025-03-26', 'completion#capabilities', 'MUST', 'Servers that support completions MUST declare the completions capability'), REPLY],
}

export const COMPLETE: CheckDef = {
  id: 'completion/complete',
  title: 'completion/complete returns completion values',
  scope: 'server',
  how: 'only with completions declared: completion/complete for the first prompt argument (else the first resource template variable) with an empty value; the result validated with the SDK’s CompleteResultSchema as the negotiated revision defines it (see “Result shapes by revision”): values is an array of at most 100 strings; -32602 is the answer the spec asks for, any other JSON-RPC error is information (capability negotiation states no keyword)',
  rules: [
    declared('2025-03-26'),
    rule('2025-03-26', 'schema', 'SCHEMA', 'CompleteResult { completion: { values: string[] (Must not exceed 100 items.); total?: number; hasMore?: boolean } }', 'shape'),
    rule('2025-03-26', 'completion#error-handling', 'SHOULD', INVALID_PARAMS, 'invalid-params'),
    REPLY,
  ],
}

export const SET_LEVEL: CheckDef = {
  id: 'logging/set-level',
  title: 'logging/setLevel is accepted',
  scope: 'server',
  how: 'logging/setLevel "info" when logging is declared; a JSON-RPC error is information (capability negotiation states no keyword)',
  rules: [declared(), EMPTY_RESULT, REPLY],
}

export const SET_LEVEL_INVALID: CheckDef = {
  id: 'logging/invalid-level',
  title: 'an unknown log level gets -32602',
  scope: 'server',
  how: `logging/setLevel "${UNKNOWN_LEVEL}" when logging is declared: the answer should be JSON-RPC error -32602 (a result or another error warns)`,
  rules: [rule('2024-11-05', 'logging#error-handling', 'SHOULD', 'Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid log level: -32602 (Invalid params)'), REPLY],
}

export const INVALID_CURSOR: CheckDef = {
  id: 'pagination/invalid-cursor',
  title: 'a list cursor the server never issued gets -32602',
  scope: 'server',
  how: 'tools/list, resources/list and prompts/list, each declared and paginating cleanly (its pagination check followed more than one page to the end): a page at a cursor no server issued, which should be answered with JSON-RPC error -32602 (a page or another error warns); a list of one page issues no cursors and is not asked; the worst answer is reported',
  rules: [rule('2024-11-05', 'pagination', 'SHOULD', 'Servers SHOULD: Handle invalid cursors gracefully; Invalid cursors SHOULD result in an error with code -32602 (Invalid params).'), REPLY],
}

export const PROMPTS_MISSING_ARGUMENT: CheckDef = {
  id: 'prompts/missing-argument',
  title: 'prompts/get without a required argument is refused',
  scope: 'server',
  how: 'prompts/get of the first listed prompt with a required argument, sent without "arguments": a result means the server did not validate the arguments (warn); an error other than -32602 warns under the error-handling SHOULD; a server with no such prompt is skipped',
  rules: [
    rule('2024-11-05', 'prompts#implementation-considerations', 'SHOULD', 'Servers SHOULD validate prompt arguments before processing'),
    rule('2024-11-05', 'prompts#error-handling', 'SHOULD', INVALID_PARAMS, 'code'),
    REPLY,
  ],
}

/** In the order the docs list them. */
export const FEATURE_CHECKS: CheckDef[] = [
  RESOURCES_UNDECLARED,
  RESOURCES_LIST,
  RESOURCES_PAGINATION,
  RESOURCES_URI_SYNTAX,
  RESOURCES_READ,
  RESOURCES_INVALID_URI,
  RESOURCE_TEMPLATES,
  RESOURCES_SUBSCRIBE,
  PROMPTS_UNDECLARED,
  PROMPTS_LIST,
  PROMPTS_PAGINATION,
  PROMPTS_GET,
  PROMPTS_MISSING_ARGUMENT,
  COMPLETIONS_UNDECLARED,
  COMPLETE,
  SET_LEVEL,
  SET_LEVEL_INVALID,
  INVALID_CURSOR,
]
