/**
 * Pure: the sections a rule may cite. The spec's own list (spec.ts) feeds the client table's
 * digest and stays as it is; the sections only server checks cite (the tasks utility's, and the
 * error-handling section of logging) are listed here and resolved the same way.
 */
import { SECTIONS, sectionLabel, sectionUrl, type Revision, type SpecTopic } from '../spec.ts'

const BASE = 'https://modelcontextprotocol.io/specification'

/** basic/utilities/tasks, by section (2025-11-25 on). */
export const TASK_SECTIONS = {
  'tasks#capabilities': ['basic/utilities/tasks#capabilities', 'tasks: capabilities'],
  'tasks#task-support-and-handling': ['basic/utilities/tasks#task-support-and-handling', 'tasks: task support and handling'],
  'tasks#task-id-requirements': ['basic/utilities/tasks#task-id-requirements', 'tasks: task ID requirements'],
  'tasks#task-status-lifecycle': ['basic/utilities/tasks#task-status-lifecycle', 'tasks: task status lifecycle'],
  'tasks#ttl-and-resource-management': ['basic/utilities/tasks#ttl-and-resource-management', 'tasks: TTL and resource management'],
  'tasks#result-retrieval': ['basic/utilities/tasks#result-retrieval', 'tasks: result retrieval'],
  'tasks#task-execution-errors': ['basic/utilities/tasks#task-execution-errors', 'tasks: task execution errors'],
  'tasks#related-task-metadata': ['basic/utilities/tasks#related-task-metadata', 'tasks: related task metadata'],
  'tasks#associating-task-related-messages': ['basic/utilities/tasks#associating-task-related-messages', 'tasks: associating task-related messages'],
  'tasks#task-notifications': ['basic/utilities/tasks#task-notifications', 'tasks: task notifications'],
  'tasks#task-listing': ['basic/utilities/tasks#task-listing', 'tasks: task listing'],
  'tasks#task-cancellation': ['basic/utilities/tasks#task-cancellation', 'tasks: task cancellation'],
  'tasks#protocol-errors': ['basic/utilities/tasks#protocol-errors', 'tasks: protocol errors'],
  'tasks#input-required-status': ['basic/utilities/tasks#input-required-status', 'tasks: input required status'],
} as const satisfies Record<string, readonly [path: string, label: string]>

/** Sections only server checks cite (the same path in every legacy revision that has them). */
const OTHER_SECTIONS = {
  // 2025-06-18 on: the _meta key naming rules of the base protocol page.
  'base#meta': ['basic#meta', 'base protocol: _meta'],
  // 2025-06-18 on.
  'resources#custom-uri-schemes': ['server/resources#custom-uri-schemes', 'resources: custom URI schemes'],
  // Every revision.
  'resources#security-considerations': ['server/resources#security-considerations', 'resources: security considerations'],
  'tools#embedded-resources': ['server/tools#embedded-resources', 'tools: embedded resources'],
  'prompts#embedded-resources': ['server/prompts#embedded-resources', 'prompts: embedded resources'],
  'prompts#implementation-considerations': ['server/prompts#implementation-considerations', 'prompts: implementation considerations'],
  'logging#error-handling': ['server/utilities/logging#error-handling', 'logging: error handling'],
  // 2025-11-25 on: progress for task-augmented requests.
  'progress#behavior-requirements': ['basic/utilities/progress#behavior-requirements', 'progress: behavior requirements'],
  // 2025-03-26 on.
  'transports#multiple-connections': ['basic/transports#multiple-connections', 'transports: multiple connections'],
  'transports#resumability-and-redelivery': ['basic/transports#resumability-and-redelivery', 'transports: resumability and redelivery'],
  // 2025-03-26 on: the authorization page (HTTP transports only).
  'authorization#overview': ['basic/authorization#overview', 'authorization: overview'],
  'authorization#code-grant': ['basic/authorization#example-authorization-code-grant', 'authorization: example authorization code grant'],
  'authorization#base-url': ['basic/authorization#authorization-base-url', 'authorization: authorization base URL'],
  'authorization#server-metadata-discovery': ['basic/authorization#server-metadata-discovery', 'authorization: server metadata discovery'],
  'authorization#authorization-server-location': ['basic/authorization#authorization-server-location', 'authorization: authorization server location'],
  'authorization#discovery-requirements': ['basic/authorization#protected-resource-metadata-discovery-requirements', 'authorization: protected resource metadata discovery requirements'],
  'authorization#token-handling': ['basic/authorization#token-handling', 'authorization: token handling'],
  'authorization#error-handling': ['basic/authorization#error-handling', 'authorization: error handling'],
} as const satisfies Record<string, readonly [path: string, label: string]>

const SERVER_SECTIONS = { ...TASK_SECTIONS, ...OTHER_SECTIONS }

export type TaskTopic = keyof typeof TASK_SECTIONS
type ServerTopic = keyof typeof SERVER_SECTIONS
export type Topic = SpecTopic | ServerTopic

function isServerTopic(topic: Topic): topic is ServerTopic {
  return Object.hasOwn(SERVER_SECTIONS, topic)
}

/** `page#anchor` of a topic, '' for what is no page of the spec (schema, JSON-RPC, the bridge). */
export function topicPath(topic: Topic): string {
  return isServerTopic(topic) ? SERVER_SECTIONS[topic][0] : SECTIONS[topic][0]
}

export function topicUrl(revision: Revision, topic: Topic): string | undefined {
  return isServerTopic(topic) ? `${BASE}/${revision}/${SERVER_SECTIONS[topic][0]}` : sectionUrl(revision, topic)
}

export function topicLabel(revision: Revision, topic: Topic): string {
  return isServerTopic(topic) ? `MCP ${revision} ${SERVER_SECTIONS[topic][1]}` : sectionLabel(revision, topic)
}
