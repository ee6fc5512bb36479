/**
 * The payload of every notification the server sends, on every connection, validated with the
 * SDK's schema for it as the negotiated revision defines it. Whether the server may send it at
 * all (the capability it needs) is lifecycle/server-notifications'.
 */
import { rule, type CheckDef } from './rules.ts'

const how = (method: string, schema: string) =>
  `every ${method} the server sends, on every connection, validated with the SDK’s ${schema} as the negotiated revision defines it (see “Result shapes by revision”); nothing sent is nothing to judge`

export const LOG_MESSAGE: CheckDef = {
  id: 'notifications/message',
  title: 'notifications/message payloads are LoggingMessageNotifications',
  scope: 'server',
  how: how('notifications/message', 'LoggingMessageNotificationSchema'),
  rules: [
    rule(
      '2024-11-05',
      'schema',
      'SCHEMA',
      'LoggingMessageNotification { method: "notifications/message"; params: { level: LoggingLevel; logger?: string; data: unknown } }; LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"',
    ),
  ],
}

export const PROGRESS: CheckDef = {
  id: 'notifications/progress',
  title: 'notifications/progress payloads are ProgressNotifications',
  scope: 'server',
  how: `${how('notifications/progress', 'ProgressNotificationSchema')}; the progress values of one token, in the order they arrived on one connection, must increase`,
  rules: [
    rule('2024-11-05', 'schema', 'SCHEMA', 'ProgressNotification { method: "notifications/progress"; params: { progressToken: ProgressToken; progress: number; total?: number } }', undefined, '2024-11-05'),
    rule('2025-03-26', 'schema', 'SCHEMA', 'ProgressNotification { method: "notifications/progress"; params: { progressToken: ProgressToken; progress: number; total?: number; message?: string } }'),
    rule('2024-11-05', 'progress', 'MUST', 'The progress value MUST increase with each notification, even if the total is unknown.', 'increase'),
  ],
}

export const CANCELLED: CheckDef = {
  id: 'notifications/cancelled',
  title: 'notifications/cancelled payloads are CancelledNotifications for the server’s own requests',
  scope: 'server',
  how: `${how('notifications/cancelled', 'CancelledNotificationSchema')}. requestId is required until 2025-06-18, and must be the id of a request the server sent`,
  rules: [
    rule('2024-11-05', 'schema', 'SCHEMA', 'CancelledNotification { method: "notifications/cancelled"; params: { requestId: RequestId; reason?: string } }', undefined, '2025-06-18'),
    rule('2025-11-25', 'schema', 'SCHEMA', 'CancelledNotification { method: "notifications/cancelled"; params: { requestId?: RequestId; reason?: string } }'),
    rule('2024-11-05', 'cancellation', 'MUST', 'Cancellation notifications MUST only reference requests that: Were previously issued in the same direction; Are believed to still be in-progress', 'request-id'),
  ],
}

export const RESOURCE_UPDATED: CheckDef = {
  id: 'notifications/resources-updated',
  title: 'notifications/resources/updated payloads are ResourceUpdatedNotifications',
  scope: 'server',
  how: how('notifications/resources/updated', 'ResourceUpdatedNotificationSchema'),
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', 'ResourceUpdatedNotification { method: "notifications/resources/updated"; params: { uri: string } }')],
}

const listChanged = (area: 'tools' | 'prompts' | 'resources', type: string): CheckDef => ({
  id: `notifications/${area}-list-changed`,
  title: `notifications/${area}/list_changed payloads are ${type}s`,
  scope: 'server',
  how: how(`notifications/${area}/list_changed`, `${type}Schema`),
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', `${type} { method: "notifications/${area}/list_changed"; params?: { _meta?: { [key: string]: unknown } } }`)],
})

export const TOOLS_LIST_CHANGED = listChanged('tools', 'ToolListChangedNotification')
export const PROMPTS_LIST_CHANGED = listChanged('prompts', 'PromptListChangedNotification')
export const RESOURCES_LIST_CHANGED = listChanged('resources', 'ResourceListChangedNotification')

export const OTHER: CheckDef = {
  id: 'notifications/other',
  title: 'any other server notification is one the revision defines, with a valid payload',
  scope: 'server',
  how: 'every other notification the server sends: notifications/tasks/status and notifications/elicitation/complete (2025-11-25) are validated with the SDK’s schema for them; a method the revision does not define is reported as information',
  rules: [
    rule(
      '2024-11-05',
      'schema',
      'NONE',
      'ServerNotification = CancelledNotification | ProgressNotification | ResourceListChangedNotification | ResourceUpdatedNotification | PromptListChangedNotification | ToolListChangedNotification | LoggingMessageNotification',
      undefined,
      '2025-06-18',
    ),
    rule(
      '2025-11-25',
      'schema',
      'NONE',
      'ServerNotification = CancelledNotification | ProgressNotification | ResourceListChangedNotification | ResourceUpdatedNotification | PromptListChangedNotification | ToolListChangedNotification | TaskStatusNotification | LoggingMessageNotification | ElicitationCompleteNotification',
    ),
    rule(
      '2025-11-25',
      'schema',
      'SCHEMA',
      'TaskStatusNotification { method: "notifications/tasks/status"; params: Task }; ElicitationCompleteNotification { method: "notifications/elicitation/complete"; params: { elicitationId: string } }',
      'shape',
    ),
  ],
  note: 'The schema lists the notifications a server sends; it states no requirement about others, so a method the revision does not define is information.',
}

/** In the order the docs list them. */
export const NOTIFICATION_CHECKS: CheckDef[] = [LOG_MESSAGE, PROGRESS, CANCELLED, RESOURCE_UPDATED, TOOLS_LIST_CHANGED, PROMPTS_LIST_CHANGED, RESOURCES_LIST_CHANGED, OTHER]
