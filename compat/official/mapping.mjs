// Pure data: which of our server checks cover the requirement each official check judges. Keyed by
// the official check id (its checks.json `id`); `ours` lists our check ids, or patterns for the
// families of ids that are ours by prefix (tools/call/<tool name>). An official check missing here,
// or whose `ours` is empty, is a requirement our kit does not judge: the line-up lists it as such,
// never as a disagreement. When our kit gains a check, its id goes into the entry it covers.
export const MAPPING = {
  // 2025-11-25 (and the legacy revisions before it). The official tools-call-* scenarios call tools
  // of the suite's own test server, ours (tools/call/<name>) the tools --call allows: no pairing.
  'server-initialize': ['lifecycle/initialize'],
  'server-session-id-visible-ascii': ['http/session-id'],
  'server-session-initialized-accepted': ['http/notification-accepted'],
  // Ours judges the DELETE and the 404 after it in one check, whose verdict the 404 decides.
  'server-session-delete-accepted': [],
  'server-session-terminated-returns-404': ['http/session-delete'],
  'localhost-host-rebinding-rejected': ['http/origin-rejected', 'modern/origin'],
  'localhost-host-valid-accepted': [],
  ping: ['lifecycle/ping'],
  'logging-set-level': ['logging/set-level'],
  'completion-complete': ['completion/complete'],
  'tools-list': ['tools/list', 'modern/lists'],
  'tools-name-format': ['tools/names-valid', 'modern/tool-names'],
  'tools-list-deterministic-order': [],
  'tools-call-simple-text': [],
  'tools-call-image': [],
  'tools-call-audio': [],
  'tools-call-embedded-resource': [],
  'tools-call-mixed-content': [],
  'tools-call-error': ['tools/call-invalid-arguments'],
  'tools-call-with-logging': ['notifications/message'],
  'tools-call-with-progress': ['notifications/progress'],
  'tools-call-sampling': ['lifecycle/server-requests'],
  'tools-call-elicitation': ['lifecycle/server-requests'],
  'elicitation-sep1034-general': ['lifecycle/server-requests'],
  'elicitation-sep1330-general': ['lifecycle/server-requests'],
  'json-schema-2020-12-tool-found': ['tools/input-schema'],
  'json-schema-2020-12-error': ['tools/input-schema'],
  'resources-list': ['resources/list', 'modern/lists'],
  'resources-read-text': ['resources/read'],
  'resources-read-binary': ['resources/read'],
  'resources-templates-read': ['resources/templates-list'],
  'resources-subscribe': ['resources/subscribe'],
  'resources-unsubscribe': ['resources/subscribe'],
  'prompts-list': ['prompts/list', 'modern/lists'],
  'prompts-get-simple': ['prompts/get'],
  'prompts-get-with-args': ['prompts/get'],
  'prompts-get-embedded-resource': ['prompts/get'],
  'prompts-get-with-image': ['prompts/get'],
  'server-sse-priming-event': ['http/sse-priming'],
  'server-sse-retry-field': [],
  'server-sse-disconnect-resume': ['http/sse-resumption'],
  'server-accepts-multiple-post-streams': [],
  'server-sse-streams-functional': [],
  // Every message validated against the revision's schema: ours judges the envelope in jsonrpc/*
  // (2026-07-28: resultType and error ids in modern/*) and each result's shape in the check of its method.
  'wire-schema-valid': ['jsonrpc/version', 'jsonrpc/result-or-error', 'jsonrpc/response-ids', 'jsonrpc/error-responses', 'modern/result-type', 'modern/error-id'],

  // 2026-07-28
  'sep-2575-server-implements-discover': ['modern/discover'],
  'sep-2575-server-declares-prompts-in-discover': ['modern/discover'],
  // A handler for each declared list (modern/lists), -32601 for each undeclared one (modern/method-not-found).
  'sep-2575-discover-capabilities-match-handlers': ['modern/lists', 'modern/method-not-found'],
  'sep-2575-server-identifies-in-result-meta': ['modern/server-info'],
  'sep-2575-server-unsupported-version-error': ['modern/unsupported-version'],
  'sep-2575-http-server-unsupported-version-400': ['modern/unsupported-version'],
  // Ours sends one request without a required _meta field (clientCapabilities); one sentence
  // (basic/index#meta) governs every missing field, and its HTTP 400.
  'sep-2575-request-meta-invalid-missing-meta': ['modern/meta-required'],
  'sep-2575-request-meta-invalid-missing-protocol-version': ['modern/meta-required'],
  'sep-2575-request-meta-invalid-missing-client-capabilities': ['modern/meta-required'],
  'sep-2575-http-server-meta-invalid-400': ['modern/meta-required'],
  'sep-2575-request-meta-client-info-optional': ['modern/client-info-optional'],
  'sep-2575-http-server-header-mismatch-400': ['modern/header-mismatch'],
  'sep-2243-server-reject-invalid-headers': ['modern/header-mismatch'],
  'sep-2243-server-reject-error-code': ['modern/header-mismatch'],
  'tasks-headers-reject-mismatched-method': ['modern/header-mismatch'],
  // Ours judges initialize on a modern-only server by the versions its refusal names, not its code.
  'sep-2575-http-server-method-not-found-404-initialize': [],
  'sep-2575-http-server-method-not-found-404-ping': ['modern/method-not-found'],
  'sep-2575-http-server-method-not-found-404-logging-setlevel': ['modern/method-not-found'],
  'sep-2575-http-server-method-not-found-404-resources-subscribe': ['modern/method-not-found'],
  'sep-2575-http-server-method-not-found-404-resources-unsubscribe': ['modern/method-not-found'],
  'sep-2575-http-server-method-not-found-404': ['modern/method-not-found'],
  'sep-2575-http-server-error-jsonrpc-id': ['modern/error-id'],
  'sep-2164-no-empty-contents': ['modern/resource-missing'],
  'sep-2164-error-code': ['modern/resource-missing'],
  'sep-2549-tools-list-caching-hints': ['modern/lists'],
  'sep-2549-prompts-list-caching-hints': ['modern/lists'],
  'sep-2549-resources-list-caching-hints': ['modern/lists'],
  'sep-2549-ttl-non-negative': ['modern/lists', 'modern/discover'],
  'sep-2549-cache-scope-valid': ['modern/lists', 'modern/discover'],
  'sep-2575-server-sends-subscription-ack': ['modern/subscriptions-listen'],
  'sep-2575-server-tags-subscription-id': ['modern/subscriptions-listen'],
  // Ours: no result of the requests it sends (none may ask for input) is "input_required".
  'sep-2322-not-on-unsupported-requests': ['modern/result-type'],
  'sep-2322-respect-client-capabilities': ['modern/input-required'],
}

/**
 * The official failures that say nothing about the requirement itself, by the reason they give:
 * the scenario needs a tool, prompt or resource of the official suite's own test server, or a
 * step before it failed for that reason. Matched against the check's errorMessage.
 */
export const FIXTURE_REASONS = [
  /\b(Tool|Prompt|Resource) '?[\w:/.-]+'? not found/,
  /^Not testable\b/,
  /\bCheck was not observed\b/,
  /\bdid not request (elicitation|sampling)\b/,
  /^No (audio|image|resource) content found$/,
  /^No (log|progress) notifications received$/,
  /^Expected multiple content items/,
  /^Prerequisite failed/,
  /\bwas not exercised\b/,
  /\bno task was created\b/,
  /\bfixture\b.*\bunavailable\b/,
  /^Expected InputRequiredResult with inputRequests and requestState$/,
  /^Server returned JSON-RPC error instead of re-requesting via InputRequiredResult/,
  /^Tool call failed$/,
]

/**
 * Official checks that exercise one server capability, by their scenario's name or their own id (the
 * non-tool input_required check gets a prompt): a target that does not declare it may refuse them.
 */
export const CAPABILITY_OF_CHECK = [
  [/prompts|non-tool/, 'prompts'],
  [/resource/, 'resources'],
  [/completion/, 'completions'],
  [/logging/, 'logging'],
]
