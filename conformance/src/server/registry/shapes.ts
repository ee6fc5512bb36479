/**
 * Pure data: where the revisions' schemas differ from the SDK's, whose zod schemas describe its
 * latest revision only. The result and notification checks validate with the SDK's schemas, and
 * these gates make them say what the negotiated revision says:
 *
 * - a field the revision does not define is not judged (it is left out before validation), so an
 *   older run never demands, or judges, a newer field;
 * - a content type the revision does not define is a schema violation of that revision;
 * - where the SDK is more lenient than the revision's schema (a default for a required field), the
 *   field is required anyway;
 * - where the SDK is stricter than the spec (a format the spec only recommends), the SDK's verdict
 *   is not a server verdict.
 *
 * conformance/docs/SERVER-CHECKS.md renders this list, so the docs and the validation cannot disagree.
 */
import type { Revision } from '../spec.ts'

/** The MCP types the kit validates, as the revisions' schema.ts name them (ContentBlock stands for every content type). */
export type ShapeType =
  | 'InitializeResult'
  | 'Implementation'
  | 'ServerCapabilities'
  | 'ListToolsResult'
  | 'Tool'
  | 'ToolAnnotations'
  | 'CallToolResult'
  | 'ContentBlock'
  | 'Annotations'
  | 'ResourceContents'
  | 'ListResourcesResult'
  | 'Resource'
  | 'ReadResourceResult'
  | 'ListResourceTemplatesResult'
  | 'ResourceTemplate'
  | 'ListPromptsResult'
  | 'Prompt'
  | 'PromptArgument'
  | 'GetPromptResult'
  | 'PromptMessage'
  | 'CompleteResult'
  | 'Result'
  | 'Icon'
  | 'LoggingMessageNotification'
  | 'ProgressNotification'
  | 'ProgressNotificationParams'
  | 'CancelledNotification'
  | 'CancelledNotificationParams'
  | 'ResourceUpdatedNotification'
  | 'ListChangedNotification'
  | 'TaskStatusNotification'
  | 'CreateTaskResult'
  | 'Task'
  | 'ListTasksResult'
  | 'ElicitationCompleteNotification'

/** Where nested types sit inside a type: a field holding one value, or (in brackets) an array of them. */
export const CHILDREN: Partial<Record<ShapeType, Record<string, ShapeType | [ShapeType]>>> = {
  InitializeResult: { capabilities: 'ServerCapabilities', serverInfo: 'Implementation' },
  Implementation: { icons: ['Icon'] },
  ListToolsResult: { tools: ['Tool'] },
  Tool: { annotations: 'ToolAnnotations', icons: ['Icon'] },
  CallToolResult: { content: ['ContentBlock'] },
  ContentBlock: { annotations: 'Annotations', resource: 'ResourceContents', icons: ['Icon'] },
  ListResourcesResult: { resources: ['Resource'] },
  Resource: { annotations: 'Annotations', icons: ['Icon'] },
  ListResourceTemplatesResult: { resourceTemplates: ['ResourceTemplate'] },
  ResourceTemplate: { annotations: 'Annotations', icons: ['Icon'] },
  ReadResourceResult: { contents: ['ResourceContents'] },
  ListPromptsResult: { prompts: ['Prompt'] },
  Prompt: { arguments: ['PromptArgument'], icons: ['Icon'] },
  GetPromptResult: { messages: ['PromptMessage'] },
  PromptMessage: { content: 'ContentBlock' },
  ProgressNotification: { params: 'ProgressNotificationParams' },
  CancelledNotification: { params: 'CancelledNotificationParams' },
}

/** A field the SDK's schema knows that a revision before `from` does not define (`from` absent: no revision the kit judges). */
export interface FieldGate {
  type: ShapeType
  field: string
  from?: Revision
}

/** A content type a revision before `from` does not define: a block of that type breaks the revision's ContentBlock union. */
export interface ContentTypeGate {
  value: string
  from: Revision
}

/** A field the revision's schema requires although the SDK's schema lets it go (with a default, or as optional). */
export interface RequiredGate {
  type: ShapeType
  field: string
  from: Revision
  until?: Revision
  why: string
}

/** A finding of the SDK's schema that the spec does not back: dropped, with the reason. */
export interface Relaxation {
  /** The path's last two keys, e.g. `annotations.lastModified`. */
  at: [string, string]
  /** The zod issue code the SDK reports there. */
  code: string
  why: string
}

const gate = (type: ShapeType, fields: string[], from?: Revision): FieldGate[] => fields.map((field) => ({ type, field, ...(from ? { from } : {}) }))

/** In the order the docs list them. */
export const FIELD_GATES: FieldGate[] = [
  ...gate('Implementation', ['title'], '2025-06-18'),
  ...gate('Implementation', ['description', 'icons', 'websiteUrl'], '2025-11-25'),
  ...gate('ServerCapabilities', ['completions'], '2025-03-26'),
  ...gate('ServerCapabilities', ['tasks'], '2025-11-25'),
  // The SDK's schema follows the draft here; no published revision defines it.
  ...gate('ServerCapabilities', ['extensions']),
  ...gate('Tool', ['annotations'], '2025-03-26'),
  ...gate('Tool', ['title', 'outputSchema', '_meta'], '2025-06-18'),
  ...gate('Tool', ['execution', 'icons'], '2025-11-25'),
  ...gate('CallToolResult', ['structuredContent'], '2025-06-18'),
  ...gate('ContentBlock', ['_meta'], '2025-06-18'),
  ...gate('ContentBlock', ['icons'], '2025-11-25'),
  ...gate('Annotations', ['lastModified'], '2025-06-18'),
  ...gate('ResourceContents', ['_meta'], '2025-06-18'),
  ...gate('Resource', ['title', '_meta'], '2025-06-18'),
  ...gate('Resource', ['icons'], '2025-11-25'),
  ...gate('ResourceTemplate', ['title', '_meta'], '2025-06-18'),
  ...gate('ResourceTemplate', ['icons'], '2025-11-25'),
  ...gate('Prompt', ['title', '_meta'], '2025-06-18'),
  ...gate('Prompt', ['icons'], '2025-11-25'),
  ...gate('PromptArgument', ['title'], '2025-06-18'),
  ...gate('ProgressNotificationParams', ['message'], '2025-03-26'),
]

export const CONTENT_TYPE_GATES: ContentTypeGate[] = [
  { value: 'audio', from: '2025-03-26' },
  { value: 'resource_link', from: '2025-06-18' },
]

export const REQUIRED_GATES: RequiredGate[] = [
  { type: 'CallToolResult', field: 'content', from: '2024-11-05', why: 'every revision declares content: ContentBlock[] without "?"; the SDK defaults it to [] for backwards compatibility' },
  {
    type: 'CancelledNotificationParams',
    field: 'requestId',
    from: '2024-11-05',
    until: '2025-06-18',
    why: 'optional from 2025-11-25 only (a task is cancelled with tasks/cancel instead)',
  },
]

export const RELAXATIONS: Relaxation[] = [
  { at: ['annotations', 'lastModified'], code: 'invalid_format', why: 'the schema types it as a string; ISO 8601 is only recommended ("Should be an ISO 8601 formatted string")' },
]
