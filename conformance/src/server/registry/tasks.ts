/**
 * The tasks checks (MCP 2025-11-25 basic/utilities/tasks), for a server that declares the tasks
 * capability. Every quote is the sentence as the extract holds it, so the coverage test ties
 * each to its place on the page.
 */
import { PAGINATION_HOW, REPLY, rule, STABLE_CURSORS, type CheckDef } from './rules.ts'

const TASK = 'Task { taskId: string; status: TaskStatus; statusMessage?: string; createdAt: string; lastUpdatedAt: string; ttl: number | null; pollInterval?: number }'
const CREATED_AT = 'Receivers MUST include a createdAt ISO 8601-formatted timestamp in all task responses to indicate when the task was created.'
const UPDATED_AT = 'Receivers MUST include a lastUpdatedAt ISO 8601-formatted timestamp in all task responses to indicate when the task was last updated.'
const SOURCE_OF_TRUTH = 'For the tasks/get, tasks/result, and tasks/cancel operations, the taskId parameter in the request MUST be used as the source of truth for identifying the target task.'

/** Only a tool the user allowed with --call is ever run as a task: a task runs the tool. */
const CALLED = 'with a tool named with --call whose execution.taskSupport is "optional" or "required"'

export const TASK_CREATE: CheckDef = {
  id: 'tasks/create',
  title: 'a task-augmented tools/call returns a CreateTaskResult',
  scope: 'server',
  how: `${CALLED}: tools/call with params.task { ttl }; the answer must be a CreateTaskResult (the SDK’s CreateTaskResultSchema) whose task starts in "working" with ISO 8601 createdAt and lastUpdatedAt; the second task the kit creates (to cancel it, when tasks.cancel is declared) must not get the first one's id (unique)`,
  rules: [
    rule('2025-11-25', 'tasks#result-retrieval', 'MUST', 'Receivers that accept a task-augmented request MUST return a CreateTaskResult as the response.'),
    rule('2025-11-25', 'schema', 'SCHEMA', `CreateTaskResult { task: Task }; ${TASK}`, 'shape'),
    rule('2025-11-25', 'tasks#task-id-requirements', 'MUST', 'Task IDs MUST be a string value.', 'task-id'),
    rule('2025-11-25', 'tasks#task-id-requirements', 'MUST', 'Task IDs MUST be unique among all tasks controlled by the receiver.', 'unique'),
    rule('2025-11-25', 'tasks#task-status-lifecycle', 'MUST', 'Tasks MUST begin in the working status when created.', 'working'),
    rule('2025-11-25', 'tasks#ttl-and-resource-management', 'MUST', `${CREATED_AT} ${UPDATED_AT}`, 'timestamps'),
    REPLY,
  ],
}

export const TASK_GET: CheckDef = {
  id: 'tasks/get',
  title: 'tasks/get answers with the task asked for',
  scope: 'server',
  how: 'tasks/get for the created task, polled at its pollInterval until it is terminal (at most the request timeout): every answer is a Task (GetTaskResultSchema) for the taskId asked, with its ttl, ISO 8601 timestamps, and a statusMessage once it failed',
  rules: [
    rule('2025-11-25', 'tasks#ttl-and-resource-management', 'MUST', 'Receivers MUST include the actual ttl duration (or null for unlimited) in tasks/get responses.'),
    rule('2025-11-25', 'schema', 'SCHEMA', `GetTaskResult = Result & Task; ${TASK}`, 'shape'),
    rule('2025-11-25', 'tasks#associating-task-related-messages', 'MUST', SOURCE_OF_TRUTH, 'same-id'),
    rule('2025-11-25', 'tasks#ttl-and-resource-management', 'MUST', `${CREATED_AT} ${UPDATED_AT}`, 'timestamps'),
    rule('2025-11-25', 'tasks#task-execution-errors', 'SHOULD', 'The tasks/get response SHOULD include a statusMessage field with diagnostic information about the failure.', 'failed'),
    REPLY,
  ],
}

export const TASK_STATUS: CheckDef = {
  id: 'tasks/status',
  title: 'a task moves only along the valid status paths',
  scope: 'server',
  how: 'every status the created tasks show, in wire order: tasks/get answers, tasks/cancel answers and notifications/tasks/status for them; a terminal status never changes, and a cancelled task stays cancelled',
  rules: [
    rule(
      '2025-11-25',
      'tasks#task-status-lifecycle',
      'MUST NOT',
      'Receivers MUST only transition tasks through the following valid paths: From working: may move to input_required, completed, failed, or cancelled; From input_required: may move to working, completed, failed, or cancelled; Tasks with a completed, failed, or cancelled status are in a terminal state and MUST NOT transition to any other status',
    ),
    rule('2025-11-25', 'tasks#task-cancellation', 'MUST', 'Once a task is cancelled, it MUST remain in cancelled status even if execution continues to completion or fails.', 'cancelled'),
  ],
}

export const TASK_RESULT: CheckDef = {
  id: 'tasks/result',
  title: 'tasks/result waits for the end and gives the call’s own result',
  scope: 'server',
  how: 'tasks/result for the created task, sent while it may still run (bounded by the request timeout): a tasks/get after the answer must show a terminal status; the answer must be what tools/call answers (a CallToolResult, or the same JSON-RPC error), compared with the plain call when the tool allows one, and carry io.modelcontextprotocol/related-task with the taskId',
  rules: [
    rule(
      '2025-11-25',
      'tasks#result-retrieval',
      'MUST',
      'When a receiver receives a tasks/result request for a task in any other non-terminal status (working or input_required), it MUST block the response until the task reaches a terminal status.',
    ),
    rule(
      '2025-11-25',
      'tasks#result-retrieval',
      'MUST',
      'When a receiver receives a tasks/result request for a task in a terminal status (completed, failed, or cancelled), it MUST return the final result of the underlying request, whether that is a successful result or a JSON-RPC error. For tasks in a terminal status, receivers MUST return from tasks/result exactly what the underlying request would have returned, whether that is a successful result or a JSON-RPC error.',
      'result',
    ),
    rule(
      '2025-11-25',
      'tasks#task-execution-errors',
      'MUST',
      'If the underlying request resulted in a JSON-RPC error, tasks/result MUST return that same JSON-RPC error; If the request completed with a JSON-RPC response, tasks/result MUST return a successful JSON-RPC response containing that result.',
      'same-kind',
    ),
    rule('2025-11-25', 'schema', 'SCHEMA', 'CallToolResult { content: ContentBlock[]; structuredContent?: object; isError?: boolean }', 'shape'),
    rule('2025-11-25', 'tasks#related-task-metadata', 'MUST', 'The tasks/result operation MUST include this metadata in its response, as the result structure itself does not contain the task ID.', 'meta'),
    REPLY,
  ],
}

export const TASK_LIST: CheckDef = {
  id: 'tasks/list',
  title: 'tasks/list lists the tasks tasks/get finds',
  scope: 'server',
  how: `only when tasks.list is declared: ${PAGINATION_HOW.replace('the listing never ends', 'the listing never ends; every page is a ListTasksResult and the created tasks are on one of them')}`,
  rules: [
    rule('2025-11-25', 'tasks#task-listing', 'MUST', 'If a task is retrievable via tasks/get for a requestor, it MUST be retrievable via tasks/list for that requestor.'),
    rule('2025-11-25', 'schema', 'SCHEMA', `ListTasksResult { tasks: Task[]; nextCursor?: string }; ${TASK}`, 'shape'),
    { ...STABLE_CURSORS, from: '2025-11-25', case: 'loop' },
    REPLY,
  ],
}

export const TASK_LIST_CURSOR: CheckDef = {
  id: 'tasks/list-cursor',
  title: 'tasks/list refuses a cursor it never issued',
  scope: 'server',
  how: 'only when tasks.list is declared: tasks/list with a cursor no server issued; the answer must be JSON-RPC error -32602',
  rules: [
    rule('2025-11-25', 'tasks#protocol-errors', 'MUST', 'Receivers MUST return standard JSON-RPC errors for the following protocol error cases: Invalid or nonexistent cursor in tasks/list: -32602 (Invalid params)'),
    REPLY,
  ],
}

export const TASK_CANCEL: CheckDef = {
  id: 'tasks/cancel',
  title: 'tasks/cancel moves a running task to cancelled before answering',
  scope: 'server',
  how: `only when tasks.cancel is declared, ${CALLED}: a second task, cancelled at once; the answer must be the task in "cancelled" (a task that ended first is refused with -32602, which is information)`,
  rules: [
    rule(
      '2025-11-25',
      'tasks#task-cancellation',
      'MUST',
      'Upon receiving a valid cancellation request, receivers SHOULD attempt to stop the task execution and MUST transition the task to cancelled status before sending the response.',
    ),
    rule('2025-11-25', 'schema', 'SCHEMA', `CancelTaskResult = Result & Task; ${TASK}`, 'shape'),
    REPLY,
  ],
}

export const TASK_CANCEL_TERMINAL: CheckDef = {
  id: 'tasks/cancel-terminal',
  title: 'tasks/cancel refuses a task that has ended',
  scope: 'server',
  how: `only when tasks.cancel is declared, ${CALLED}: tasks/cancel for the first task once it is terminal; the answer must be JSON-RPC error -32602`,
  rules: [
    rule(
      '2025-11-25',
      'tasks#task-cancellation',
      'MUST',
      'Receivers MUST reject cancellation requests for tasks already in a terminal status (completed, failed, or cancelled) with error code -32602 (Invalid params).',
    ),
    rule('2025-11-25', 'tasks#protocol-errors', 'MUST', 'Receivers MUST return standard JSON-RPC errors for the following protocol error cases: Attempt to cancel a task already in a terminal status: -32602 (Invalid params)', 'protocol-error'),
    REPLY,
  ],
}

export const TASK_UNKNOWN_ID: CheckDef = {
  id: 'tasks/unknown-id',
  title: 'a taskId never issued is refused with -32602',
  scope: 'server',
  how: 'whenever tasks is declared: tasks/get and tasks/result (and tasks/cancel when declared) for a taskId the server never issued; each answer must be JSON-RPC error -32602',
  rules: [
    rule('2025-11-25', 'tasks#protocol-errors', 'MUST', 'Receivers MUST return standard JSON-RPC errors for the following protocol error cases: Invalid or nonexistent taskId in tasks/get, tasks/result, or tasks/cancel: -32602 (Invalid params)'),
    REPLY,
  ],
}

export const TASK_FORBIDDEN: CheckDef = {
  id: 'tasks/forbidden-tool',
  title: 'a tool without task support refuses a task-augmented call',
  scope: 'server',
  how: 'only when tasks.requests.tools.call is declared, with a tool named with --call whose execution.taskSupport is absent or "forbidden": tools/call with params.task; the answer should be JSON-RPC error -32601',
  rules: [rule('2025-11-25', 'tasks#tool-level-negotiation', 'SHOULD', 'Servers SHOULD return a -32601 (Method not found) error if a client attempts to do so.')],
}

export const TASK_RELATED_META: CheckDef = {
  id: 'tasks/related-meta',
  title: 'task answers that name the task do not repeat it in _meta',
  scope: 'server',
  how: 'every tasks/get, tasks/list and tasks/cancel result and notifications/tasks/status the kit saw: none should carry io.modelcontextprotocol/related-task in _meta',
  rules: [
    rule(
      '2025-11-25',
      'tasks#associating-task-related-messages',
      'SHOULD NOT',
      'Similarly, for the tasks/get, tasks/list, and tasks/cancel operations, receivers SHOULD NOT include io.modelcontextprotocol/related-task metadata in the result messages, as the taskId is already present in the response structure.',
    ),
    rule(
      '2025-11-25',
      'tasks#related-task-metadata',
      'SHOULD NOT',
      'For the tasks/get, tasks/list, and tasks/cancel operations, requestors and receivers SHOULD NOT include this metadata in their messages, as the taskId is already present in the message structure.',
      'operations',
    ),
    rule(
      '2025-11-25',
      'tasks#task-notifications',
      'SHOULD NOT',
      'When sent, the notifications/tasks/status notification SHOULD NOT include the io.modelcontextprotocol/related-task metadata, as the task ID is already present in the notification parameters.',
      'notification',
    ),
  ],
}

export const TASK_UNDECLARED: CheckDef = {
  id: 'tasks/undeclared-augmentation',
  title: 'a server that does not declare task-augmented tools/call runs such a call as a plain one',
  scope: 'server',
  how: 'only when tasks.requests.tools.call is not declared, with the first tool named with --call: tools/call with params.task { ttl }; the answer must be what a plain call answers (a CallToolResult), never a CreateTaskResult. A JSON-RPC error is information: whether the plain call succeeds is tools/call/{name}’s to judge',
  rules: [
    rule(
      '2025-11-25',
      'tasks#task-support-and-handling',
      'MUST',
      'Receivers that do not declare the task capability for a request type MUST process requests of that type normally, ignoring any task-augmentation metadata if present.',
    ),
  ],
}

export const TASK_PROGRESS: CheckDef = {
  id: 'tasks/progress',
  title: 'progress for a task keeps the token of the request that created it',
  scope: 'server',
  how: `${CALLED}: the task-augmented tools/call carries _meta.progressToken; every notifications/progress that arrives with the answers about that task (the call, tasks/get, tasks/result) must carry that token. A server that sends none there has nothing to judge (over HTTP it may send them on the GET stream, which this check does not read)`,
  rules: [
    rule(
      '2025-11-25',
      'progress#behavior-requirements',
      'MUST',
      "For task-augmented requests, the progressToken provided in the original request MUST continue to be used for progress notifications throughout the task's lifetime, even after the CreateTaskResult has been returned.",
    ),
    rule('2025-11-25', 'progress#behavior-requirements', 'MUST', 'Progress notifications for tasks MUST use the same progressToken that was provided in the initial task-augmented request'),
  ],
}

export const TASK_GET_POLLING: CheckDef = {
  id: 'tasks/get-polling',
  title: 'tasks/get is answered with JSON, not an event stream',
  scope: 'server',
  transport: 'http',
  how: 'over Streamable HTTP, every tasks/get the kit sent about the tasks it created: an answer with Content-Type text/event-stream is a stream the client did not want (it polls); over stdio there are no streams to choose',
  rules: [
    rule(
      '2025-11-25',
      'tasks#input-required-status',
      'SHOULD NOT',
      'Where possible, servers SHOULD NOT upgrade to an SSE stream in response to a tasks/get request, as the client has indicated it wishes to poll for a result.',
    ),
  ],
}

export const TASK_CHECKS: CheckDef[] = [
  TASK_CREATE,
  TASK_GET,
  TASK_STATUS,
  TASK_RESULT,
  TASK_LIST,
  TASK_LIST_CURSOR,
  TASK_CANCEL,
  TASK_CANCEL_TERMINAL,
  TASK_UNKNOWN_ID,
  TASK_FORBIDDEN,
  TASK_UNDECLARED,
  TASK_RELATED_META,
  TASK_PROGRESS,
  TASK_GET_POLLING,
]
