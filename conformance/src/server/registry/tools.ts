/** The tools checks: declaration, listing, definitions, and the calls the kit makes. */
import { PAGINATION_HOW, REPLY, rule, STABLE_CURSORS, type CheckDef } from './rules.ts'

const DECLARE = 'Servers that support tools MUST declare the tools capability'
const LIST = 'ListToolsResult { tools: Tool[]; nextCursor?: Cursor }; Tool { name: string; inputSchema: { type: "object"; … } }'
const VALID_SCHEMA = 'Schemas MUST be valid according to their declared or default dialect'

export const TOOLS_UNDECLARED: CheckDef = {
  id: 'tools/undeclared',
  title: 'tools are not served without the tools capability',
  scope: 'server',
  how: 'only when tools is not declared: tools/list, which must not list tools',
  rules: [rule('2024-11-05', 'tools#capabilities', 'MUST', DECLARE), REPLY],
}

export const TOOLS_LIST: CheckDef = {
  id: 'tools/list',
  title: 'tools/list returns a well-formed list',
  scope: 'server',
  how: 'every page of tools/list, validated with the SDK’s ListToolsResultSchema as the negotiated revision defines it (see “Result shapes by revision”); what is wrong inside a tool’s inputSchema, outputSchema, description, title, annotations or execution is reported by the check about that field',
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', LIST), REPLY],
}

export const TOOLS_PAGINATION: CheckDef = {
  id: 'tools/pagination',
  title: 'tools/list pagination ends',
  scope: 'server',
  how: PAGINATION_HOW,
  rules: [STABLE_CURSORS],
}

export const NAMES_VALID: CheckDef = {
  id: 'tools/names-valid',
  title: 'tool names follow the naming rules',
  scope: 'server',
  how: 'every listed name matches ^[A-Za-z0-9._-]{1,128}$',
  rules: [
    rule(
      '2025-11-25',
      'tools#tool-names',
      'SHOULD',
      'Tool names SHOULD be between 1 and 128 characters in length (inclusive). The following SHOULD be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)',
    ),
  ],
}

export const NAMES_UNIQUE: CheckDef = {
  id: 'tools/names-unique',
  title: 'tool names are unique within the server',
  scope: 'server',
  how: 'no name is listed twice',
  rules: [
    rule('2024-11-05', 'tools#tool', 'NONE', 'name: Unique identifier for the tool', undefined, '2025-06-18'),
    rule('2025-11-25', 'tools#tool-names', 'SHOULD', 'Tool names SHOULD be unique within a server.'),
  ],
}

/** A valid schema that declares another dialect: allowed ("Schemas MAY include a $schema field"), not the recommended one. RECOMMENDED reads as SHOULD (RFC 2119). */
const RECOMMENDED_2020_12 = rule('2025-11-25', 'base#json-schema-usage', 'SHOULD', 'Recommendation: Implementors are RECOMMENDED to use JSON Schema 2020-12.', 'recommended')

export const INPUT_SCHEMA: CheckDef = {
  id: 'tools/input-schema',
  title: 'every inputSchema is a valid object schema',
  scope: 'server',
  how: 'its shape in the SDK’s ToolSchema (type "object", properties of objects, required of strings), and the schema is valid in its dialect: its $schema (draft-04, -06, -07, 2019-09, 2020-12), else 2020-12 from 2025-11-25 on and draft-07 before; local and in-document $refs are resolved. Before 2025-11-25 no sentence requires a valid schema or names a default dialect, so an invalid one is information. From 2025-11-25 on, valid schemas that declare a dialect other than 2020-12 are a warning: allowed, but not the recommended dialect',
  rules: [
    rule('2024-11-05', 'schema', 'SCHEMA', 'Tool { inputSchema: { type: "object"; properties?: { [key: string]: object }; required?: string[] } }', undefined, '2025-06-18'),
    rule('2025-11-25', 'tools#tool', 'MUST', 'inputSchema: … MUST be a valid JSON Schema object (not null)'),
    rule('2024-11-05', 'schema', 'SCHEMA', 'Tool { inputSchema: { type: "object"; … } }', 'object'),
    // Before 2025-11-25 no default dialect is defined and no sentence requires a valid schema.
    rule('2024-11-05', 'tools#tool', 'NONE', 'inputSchema: JSON Schema defining expected parameters', 'dialect', '2025-06-18'),
    rule('2025-11-25', 'base#json-schema-usage', 'MUST', VALID_SCHEMA, 'dialect'),
    RECOMMENDED_2020_12,
  ],
}

export const OUTPUT_SCHEMA: CheckDef = {
  id: 'tools/output-schema',
  title: 'every outputSchema is a valid object schema',
  scope: 'server',
  how: 'the same as tools/input-schema, for the tools that declare an outputSchema',
  rules: [
    rule('2025-06-18', 'schema', 'SCHEMA', 'Tool { outputSchema?: { type: "object"; properties?: { [key: string]: object }; required?: string[] } }', undefined, '2025-06-18'),
    rule('2025-11-25', 'base#json-schema-usage', 'MUST', VALID_SCHEMA),
    rule('2025-06-18', 'schema', 'SCHEMA', 'Tool { outputSchema?: { type: "object"; … } }', 'object'),
    rule('2025-06-18', 'tools#tool', 'NONE', 'outputSchema: Optional JSON Schema defining expected output structure', 'dialect', '2025-06-18'),
    rule('2025-11-25', 'base#json-schema-usage', 'MUST', VALID_SCHEMA, 'dialect'),
    RECOMMENDED_2020_12,
  ],
}

export const DESCRIPTIONS: CheckDef = {
  id: 'tools/descriptions',
  title: 'tool descriptions are strings',
  scope: 'server',
  how: 'description, when present, is a string (the SDK’s ToolSchema); a missing description is reported as information (it is optional, but it is what a model chooses by)',
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', 'Tool { description?: string }'), rule('2024-11-05', 'tools#tool', 'NONE', 'description: Human-readable description of functionality', 'missing')],
}

export const ANNOTATIONS: CheckDef = {
  id: 'tools/annotations',
  title: 'tool annotations are well-typed',
  scope: 'server',
  how: 'annotations (from 2025-03-26) and title (from 2025-06-18) as the SDK’s ToolSchema has them: an object whose title is a string and whose *Hint fields are booleans; a field the revision does not define is not judged',
  rules: [rule('2025-03-26', 'schema', 'SCHEMA', 'ToolAnnotations { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }')],
}

export const TASK_SUPPORT: CheckDef = {
  id: 'tools/task-support',
  title: 'execution.taskSupport is valid',
  scope: 'server',
  how: 'execution.taskSupport is forbidden, optional or required (the SDK’s ToolExecutionSchema); a tool asking for tasks without capabilities.tasks.requests.tools.call is reported as information',
  rules: [
    rule('2025-11-25', 'schema', 'SCHEMA', 'ToolExecution { taskSupport?: "forbidden" | "optional" | "required" }'),
    rule(
      '2025-11-25',
      'tasks#tool-level-negotiation',
      'NONE',
      "If a server's capabilities do not include tasks.requests.tools.call, then clients MUST NOT attempt to use task augmentation on that server's tools, regardless of the execution.taskSupport value.",
      'no-capability',
    ),
  ],
}

export const UNKNOWN_TOOL: CheckDef = {
  id: 'tools/call-unknown-tool',
  title: 'calling an unknown tool is answered with a protocol error',
  scope: 'server',
  how: 'tools/call of a name that tools/list does not contain (so nothing runs)',
  rules: [rule('2024-11-05', 'tools#error-handling', 'NONE', 'Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools'), REPLY],
  note: 'The spec files unknown tools under protocol errors without a keyword, so an isError result, or even a success, is reported as information.',
}

export const INVALID_ARGUMENTS: CheckDef = {
  id: 'tools/call-invalid-arguments',
  title: 'arguments that break the inputSchema are rejected',
  scope: 'server',
  how: 'a --call tool called with arguments its own inputSchema rejects (checked with the validator first); an isError result and a JSON-RPC error both count as rejection',
  rules: [rule('2024-11-05', 'tools#security-considerations', 'MUST', 'Servers MUST: Validate all tool inputs'), REPLY],
}

export const USER_CALL: CheckDef = {
  id: 'tools/call/{name}',
  title: 'tools/call {name} returns a valid CallToolResult',
  scope: 'server',
  how: 'each --call, with a progressToken: the result validated with the SDK’s CallToolResultSchema as the negotiated revision defines it (see “Result shapes by revision”) (content is required even though the SDK defaults it); a well-formed result with an embedded resource block from a server that does not declare resources warns; a task-only tool must refuse a plain call with -32601; a JSON-RPC error is information (no result to judge); a --call of a tool tools/list does not list is a usage error',
  rules: [
    rule('2024-11-05', 'schema', 'SCHEMA', 'CallToolResult { content: (TextContent | ImageContent | EmbeddedResource)[]; isError?: boolean }', undefined, '2024-11-05'),
    rule('2025-03-26', 'schema', 'SCHEMA', 'CallToolResult { content: (TextContent | ImageContent | AudioContent | EmbeddedResource)[]; isError?: boolean }', undefined, '2025-03-26'),
    rule(
      '2025-06-18',
      'schema',
      'SCHEMA',
      'CallToolResult { content: ContentBlock[]; structuredContent?: { [key: string]: unknown }; isError?: boolean }; ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource',
    ),
    rule('2025-11-25', 'tasks#tool-level-negotiation', 'MUST', 'If execution.taskSupport is "required", clients MUST invoke the tool as a task. Servers MUST return a -32601 (Method not found) error if a client does not attempt to do so.', 'task-only'),
    rule('2025-06-18', 'tools#embedded-resources', 'SHOULD', 'Servers that use embedded resources SHOULD implement the resources capability:', 'embedded'),
    // A JSON-RPC error is one of the two ways the spec gives a tool to fail: no result, nothing to judge.
    rule('2024-11-05', 'tools#error-handling', 'NONE', 'Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools; Invalid arguments; Server errors', 'protocol-error', '2025-06-18'),
    rule(
      '2025-11-25',
      'tools#error-handling',
      'NONE',
      'Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools; Malformed requests (requests that fail to satisfy CallToolRequest schema); Server errors',
      'protocol-error',
    ),
    REPLY,
  ],
}

export const STRUCTURED_CONTENT: CheckDef = {
  id: 'tools/call/{name}/structured-content',
  title: 'tools/call {name} returns structuredContent matching its outputSchema',
  scope: 'server',
  how: 'each --call of a tool with an outputSchema: structuredContent validates against it, and a text block carries it too',
  rules: [
    rule('2025-06-18', 'tools#output-schema', 'MUST', 'Servers MUST provide structured results that conform to this schema.'),
    rule('2025-06-18', 'tools#structured-content', 'SHOULD', 'For backwards compatibility, a tool that returns structured content SHOULD also return the serialized JSON in a TextContent block.', 'text-block'),
  ],
}

/** In the order the docs list them. */
export const TOOL_CHECKS: CheckDef[] = [
  TOOLS_UNDECLARED,
  TOOLS_LIST,
  TOOLS_PAGINATION,
  NAMES_VALID,
  NAMES_UNIQUE,
  INPUT_SCHEMA,
  OUTPUT_SCHEMA,
  DESCRIPTIONS,
  ANNOTATIONS,
  TASK_SUPPORT,
  UNKNOWN_TOOL,
  INVALID_ARGUMENTS,
  USER_CALL,
  STRUCTURED_CONTENT,
]
