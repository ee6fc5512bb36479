import { BehaviourSchema } from '@mcp-bridge/fixtures-server'
import { z } from 'zod'
import { KNOWN_REVISIONS } from '../server/spec.ts'
import { evaluateDuration } from './durations.ts'
import { RUN_ERAS } from './eras.ts'

/**
 * The scenario format (conformance/FORMAT.md). Strict objects everywhere: a typo is an error that
 * names its path, never a silently ignored key.
 */
const Regex = z.string().refine((s) => {
  try {
    new RegExp(s)
    return true
  } catch {
    return false
  }
}, 'not a valid regular expression')

/**
 * Milliseconds, or a sum relative to the scenario's client config (durations.ts):
 * `toolCallTimeoutMs * 3 + 2000`. Checked against the config when the scenario loads.
 */
const Duration = z.union([z.int().min(0), z.string().min(1)])

/** How long something took, judged from the run's own clock: at least / at most. */
const Took = z
  .strictObject({ atLeast: Duration.optional(), atMost: Duration.optional() })
  .refine((t) => t.atLeast !== undefined || t.atMost !== undefined, 'give atLeast, atMost or both')

/** What a call's outcome must look like; every given field is checked. */
const CallExpectation = z.strictObject({
  isError: z.boolean().optional(),
  /** The error code (UNKNOWN_TOOL, TOOL_TIMEOUT, …), implies isError. */
  code: z.string().optional(),
  /** A regular expression the model-facing text (all text blocks, joined) must match. */
  text: Regex.optional(),
  /** A regular expression the model-facing text must not match. */
  notText: Regex.optional(),
  /** How many image references the model-facing content holds. */
  images: z.int().min(0).optional(),
  /** Deep-equal to the canonical value's structuredContent. */
  structured: z.json().optional(),
  /**
   * Which of text, notText, images and structured hold for every MCP client (the server's own
   * words, say); the others are our plugin's rendering and judge bridges only. isError always holds.
   */
  universal: z.array(z.enum(['text', 'notText', 'images', 'structured'])).optional(),
})

const Route = z.enum(['vision', 'text-only', 'none'])

const CallStep = z.strictObject({
  call: z.strictObject({
    /** The tool's raw MCP name; the client's public name for it is looked up. */
    tool: z.string(),
    args: z.record(z.string(), z.json()).default({}),
    /** The model route the call is made for (images need `vision`). */
    route: Route.default('none'),
    /** Abort the call this long after it was sent (the caller pressed stop). */
    abortAfterMs: z.int().min(0).optional(),
    expect: CallExpectation.optional(),
  }),
  took: Took.optional(),
})

/** Conditions a `wait` step blocks on (bounded by `timeoutMs`). */
const WaitCondition = z.strictObject({
  /** The client's tools, by raw name, equal exactly this set. */
  tools: z.array(z.string()).optional(),
  /** The client reports this connection state. */
  state: z.enum(['connecting', 'connected', 'reconnecting', 'stopped']).optional(),
  /** A client log line matches. */
  log: Regex.optional(),
  /** The fixture received a request or notification with this method (`count` times, default 1). */
  received: z.string().optional(),
  count: z.int().min(1).default(1),
  /** Plain time, for scenarios about uptime windows; prefer an event. */
  ms: z.int().min(0).max(10_000).optional(),
  /** The fixture's wire has been quiet (no message either way) for this long: a behaviour's settle window. */
  quiet: Duration.optional(),
  timeoutMs: z.int().min(1).max(60_000).default(10_000),
})

const took = { took: Took.optional() }

/** What the client answered a verb beyond tools (run/steps/beyond.ts); every given field is checked. */
const BeyondExpectation = z.strictObject({
  /** Lists: exactly these URIs, URI templates or prompt names, in any order (every page followed); resourceUpdates: these URIs, in order. */
  items: z.array(z.string()).optional(),
  /** A regular expression the answer's text (resource text, prompt message texts) must match. */
  text: Regex.optional(),
  /** readResource: how many characters of text the client handed over. */
  length: z.int().min(0).optional(),
  /** readResource: the SHA-256 (hex) of the bytes the client's blob decodes to. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lowercase hex').optional(),
  /** complete: exactly these values, in order. */
  values: z.array(z.string()).optional(),
  /** The client refused (answered an error) instead of a result. */
  refused: z.boolean().optional(),
})

const beyond = { expect: BeyondExpectation.optional() }

/** Verbs beyond tools, each asked of the client through its driver (optional: FEATURES in applicability.ts). */
const BeyondSteps = [
  z.strictObject({ listResources: z.strictObject(beyond), ...took }),
  z.strictObject({ listTemplates: z.strictObject(beyond), ...took }),
  /** Read this URI as the client's user names it (the URI the server listed). */
  z.strictObject({ readResource: z.strictObject({ uri: z.string().min(1), ...beyond }), ...took }),
  z.strictObject({ listPrompts: z.strictObject(beyond), ...took }),
  /** Get a prompt with these arguments, as declared by the server (strings, by MCP's schema). */
  z.strictObject({ getPrompt: z.strictObject({ name: z.string().min(1), args: z.record(z.string(), z.string()).default({}), ...beyond }), ...took }),
  /** Subscribe to this resource's updates (resources/subscribe, or a 2026-07-28 subscriptions/listen), as the client's user would. */
  z.strictObject({ subscribe: z.strictObject({ uri: z.string().min(1), ...beyond }), ...took }),
  z.strictObject({ unsubscribe: z.strictObject({ uri: z.string().min(1), ...beyond }), ...took }),
  /** The URIs of the updates the client has told its user of so far, in order (`expect.items` compares them in order). */
  z.strictObject({ resourceUpdates: z.strictObject(beyond), ...took }),
  /** The server's initialize `instructions` as the client hands them on (`expect.text`, `expect.length` judge them). */
  z.strictObject({ serverInstructions: z.strictObject(beyond), ...took }),
  z.strictObject({
    complete: z.strictObject({
      ref: z.union([z.strictObject({ type: z.literal('ref/prompt'), name: z.string() }), z.strictObject({ type: z.literal('ref/resource'), uri: z.string() })]),
      argument: z.strictObject({ name: z.string(), value: z.string() }),
      ...beyond,
    }),
    ...took,
  }),
] as const

const Step = z.union([
  CallStep,
  z.strictObject({ wait: WaitCondition, ...took }),
  /** Kill the server process (stdio) or close the fixture (HTTP), as a crash would. */
  z.strictObject({ kill: z.literal(true), ...took }),
  /** HTTP: start the fixture again at the same URL. */
  z.strictObject({ restart: z.literal(true), ...took }),
  /** Check the client's tools (raw names) right now. */
  z.strictObject({ expectTools: z.array(z.string()), ...took }),
  /** Another plugin of the host registers a tool under this public name (squatting). */
  z.strictObject({ squat: z.string(), ...took }),
  z.strictObject({ dispose: z.literal(true), ...took }),
  ...BeyondSteps,
  /**
   * Change the client's configured roots while it runs (the driver's `setRoots`), then wait up to
   * `timeoutMs` for the fixture to receive notifications/roots/list_changed (run/steps/set-roots.ts).
   */
  z.strictObject({
    setRoots: z.strictObject({
      roots: z.array(z.strictObject({ uri: z.string().min(1), name: z.string().optional() })).min(1).max(64),
      timeoutMs: z.int().min(1).max(60_000).default(10_000),
    }),
    ...took,
  }),
])

/** How often something may happen: at least / at most. */
const Bounds = z.strictObject({ min: z.int().min(0).optional(), max: z.int().min(0).optional() })

/**
 * A count bound that follows what the fixture sent: `max` grows by one for each gap longer than
 * `longerThan` between consecutive `of` messages the fixture sent (its wire log's times). A client
 * that debounces a burst re-lists once per stretch of it, and a loaded machine decides how many
 * stretches there were; the bound is derived from that, never fixed.
 */
const PerGap = z.strictObject({ of: z.string().min(1), longerThan: Duration })

const ReceivedBounds = Bounds.extend({ perGap: PerGap.optional() }).refine((b) => b.perGap === undefined || b.max !== undefined, { message: 'perGap raises max: give max too', path: ['perGap'] })

const Expectations = z.strictObject({
  /** The client's tools at the end, by raw name (before disposal). */
  tools: z.array(z.string()).optional(),
  /** A regular expression each named tool's description (raw name) must match: which version of a tool is registered. */
  descriptions: z.record(z.string(), Regex).optional(),
  /** Exact public names for raw names, for scenarios about naming. */
  publicNames: z.record(z.string(), z.string()).optional(),
  /**
   * Regular expressions each of which some client log line must match; an empty list says the
   * client logs no warning and no error at all (the default, no key, says nothing).
   */
  logs: z.array(Regex).optional(),
  /** Regular expressions no client log line may match. */
  noLogs: z.array(Regex).default([]),
  /** The client's connection state at the end. */
  state: z.enum(['connecting', 'connected', 'reconnecting', 'stopped']).optional(),
  /** Bounds on how often the fixture received each method. */
  received: z.record(z.string(), ReceivedBounds).default({}),
  /**
   * HTTP: bounds on how many requests the fixture answered with each status (a 401 is refused
   * before any JSON-RPC is read, so only the HTTP log shows a retry with the same credentials).
   * `<status>/<method>` counts only POSTs of that JSON-RPC method: `401/initialize` is a retry,
   * which a version probe or the legacy-SSE GET of the spec's fallback is not.
   */
  httpStatus: z
    .record(z.string().regex(/^\d{3}(\/[A-Za-z_/]+)?$/, 'an HTTP status code, or <status>/<JSON-RPC method>'), Bounds)
    .default({}),
  /**
   * OAuth (the fixture's `http.oauth`): bounds on the token requests the fixture's authorization
   * server received, by `<grant>` (client_credentials, refresh_token), `<grant>/<outcome>` (issued,
   * invalid_client, invalid_target, invalid_grant, unsupported_grant_type) or `all`.
   */
  tokenRequests: z.record(z.string().regex(/^(all|[a-z_]+(\/[a-z_]+)?)$/, 'all, <grant> or <grant>/<outcome>'), Bounds).default({}),
  /**
   * OAuth: bounds on the requests to the MCP endpoint by the credential they carried: none, valid,
   * expired, unknown, refused (the 401-forever mode) or query (a token in the URL, which MCP forbids).
   */
  bearer: z.partialRecord(z.enum(['none', 'valid', 'expired', 'unknown', 'refused', 'query']), Bounds).default({}),
  /** Files in the attachment store at the end. */
  attachments: z.int().min(0).optional(),
  /** A second client instance with the same serverName must fail to load. */
  duplicateServerNameRejected: z.boolean().optional(),
  /** The error the refused second instance raised matches this (the message a user acts on). */
  duplicateServerNameMessage: Regex.optional(),
  /**
   * stdio: the shutdown requests the client's last server saw, in order, before it was gone:
   * `[eof]` (it exited on stdin EOF), `[eof, sigterm]` (it needed SIGTERM), and for a server that
   * ignores both, the same two followed by the SIGKILL that leaves no trace but its end.
   */
  shutdown: z.array(z.enum(['eof', 'sigterm'])).optional(),
  /**
   * stdio: how many of the server processes the client started are still running at the end,
   * before disposal (0 after a failed initialize or a spent budget: a stopped client keeps none).
   */
  running: z.int().min(0).optional(),
  /**
   * Raw names the client must never expose, each invalid by itself (a non-object inputSchema, say):
   * invariant/no-partial-generation allows a served generation less exactly these.
   */
  quarantined: z.array(z.string()).optional(),
  /**
   * Raw names of tools the client offers of its own beside the server's (the bridge's
   * `list_resources` and `read_resource`): invariant/no-partial-generation leaves them out.
   */
  ownTools: z.array(z.string()).optional(),
})

/** Whom the scenario judges (conformance/src/client/applicability.ts). */
const Applies = z.strictObject({
  /**
   * every-client (the default); bridge: about a bridge naming contract; listChanged / reconnect /
   * tasks: about a behaviour the spec leaves to the client, judged for clients whose driver declares it;
   * resources / prompts / completions: a feature beyond tools, judged for any client (a bridge
   * included) that declares it, not applicable to one that does not; auth: OAuth, judged for
   * clients whose driver declares it (the driver protocol's `auth`); roots / elicitation /
   * sampling: asks a client answers when configured to (`client.roots`, `client.elicitation`,
   * `client.sampling`), judged for clients whose driver declares them, a bridge always (it
   * must refuse what it does not offer).
   */
  to: z.enum(['every-client', 'bridge', 'listChanged', 'reconnect', 'tasks', 'resources', 'prompts', 'completions', 'auth', 'roots', 'elicitation', 'sampling']).default('every-client'),
  reason: z.string().optional(),
  /** Further check ids of this scenario that judge bridges only, each with its reason. */
  bridgeOnly: z.record(z.string(), z.string()).default({}),
  /**
   * Check ids that enforce a SHOULD for clients (the sentence quoted): a client's breach is a
   * warning. `{ from, sentence }` for a sentence a revision introduced: on an older revision the
   * check is what `info` says of it (information).
   */
  should: z.record(z.string(), z.union([z.string(), z.strictObject({ from: z.enum(KNOWN_REVISIONS), sentence: z.string() })])).default({}),
  /**
   * Check ids (or `expect/call-N.<field>` for one part of a call's expectation) whose breach by a
   * client is information: the sentence quoted has no keyword, or only MAY. A `skip` (or, for a
   * part of a call, a note on its verdict) that quotes it; a bridge is still judged.
   */
  info: z.record(z.string(), z.string()).default({}),
  /**
   * Check ids whose evidence in this scenario follows the scheduler (a stdio fixture's start-up
   * against a short bound decides whether it read anything before the client gave up), each with
   * the reason. Their pass or skip is reported as one skip that gives it, so a sound client's
   * verdict does not follow the machine's load; a fail or a warn stands, as what was seen.
   */
  unsteady: z.record(z.string(), z.string()).default({}),
})

const ScenarioBase = z.strictObject({
  /** Equals the file name without `.yaml`: kebab-case, named after the behaviour. */
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'use kebab-case: lowercase words joined by "-"'),
  title: z.string().min(1),
  /** The spec sections or seed passages the scenario enforces. */
  spec: z.array(z.strictObject({ ref: z.string(), url: z.url().optional() })).min(1),
  transports: z.array(z.enum(['stdio', 'http'])).min(1).default(['stdio', 'http']),
  /**
   * The protocol eras the fixture is run at, each a run of its own (like a transport): legacy (the
   * initialize handshake), modern (MCP 2026-07-28 only), dual (both). Default: legacy only.
   */
  eras: z.array(z.enum(RUN_ERAS)).min(1).default(['legacy']),
  /** The fixture's behaviour (fixtures-server/README.md). */
  server: BehaviourSchema,
  /** Client configuration on top of the adapter's defaults (for our plugin: its Config fields). */
  client: z.record(z.string(), z.json()).default({}),
  /** Environment variables set in the client's process for the run (secret canaries). */
  hostEnv: z.record(z.string(), z.string()).default({}),
  steps: z.array(Step).default([]),
  expect: Expectations.default({ noLogs: [], received: {}, httpStatus: {}, tokenRequests: {}, bearer: {} }),
  /**
   * End-of-run expectations are judged once the fixture's wire has been quiet this long (the
   * behaviour's settle window: a backoff, a debounce, a max wait), so a late retry or re-list counts.
   */
  settle: Duration.optional(),
  /**
   * Bounds on the client's start (until it is ready or has given up), on the whole run (until the
   * end state is judged) and on the teardown's dispose (when no step disposed the client).
   */
  timing: z.strictObject({ start: Took.optional(), total: Took.optional(), dispose: Took.optional() }).optional(),
  applies: Applies.default({ to: 'every-client', bridgeOnly: {}, should: {}, info: {}, unsteady: {} }),
  /** Parts of the transcript that are not deterministic for this scenario, with the reason. */
  transcript: z.strictObject({ wire: z.boolean().default(true), reason: z.string().optional() }).default({ wire: true }),
})

/** Every duration of a scenario, with its path, for validation against its client config. */
export function scenarioDurations(scenario: z.output<typeof ScenarioBase>): Array<{ path: Array<string | number>; value: string | number }> {
  const found: Array<{ path: Array<string | number>; value: string | number }> = []
  const took = (path: Array<string | number>, t: { atLeast?: string | number; atMost?: string | number } | undefined) => {
    if (t?.atLeast !== undefined) found.push({ path: [...path, 'atLeast'], value: t.atLeast })
    if (t?.atMost !== undefined) found.push({ path: [...path, 'atMost'], value: t.atMost })
  }
  for (const [index, step] of scenario.steps.entries()) {
    took(['steps', index, 'took'], step.took)
    if ('wait' in step && step.wait.quiet !== undefined) found.push({ path: ['steps', index, 'wait', 'quiet'], value: step.wait.quiet })
  }
  for (const [method, bounds] of Object.entries(scenario.expect.received)) {
    if (bounds.perGap) found.push({ path: ['expect', 'received', method, 'perGap', 'longerThan'], value: bounds.perGap.longerThan })
  }
  if (scenario.settle !== undefined) found.push({ path: ['settle'], value: scenario.settle })
  took(['timing', 'start'], scenario.timing?.start)
  took(['timing', 'total'], scenario.timing?.total)
  took(['timing', 'dispose'], scenario.timing?.dispose)
  return found
}

export const ScenarioSchema = ScenarioBase.superRefine((scenario, ctx) => {
  // One place says a scenario's eras: its runs set the fixture's era, so server.era would be overridden.
  if (scenario.server.era !== 'legacy') ctx.addIssue({ code: 'custom', path: ['server', 'era'], message: 'a scenario runs its fixture at the eras it lists: remove server.era and write eras: [...] at the top' })
  if (new Set(scenario.eras).size !== scenario.eras.length) ctx.addIssue({ code: 'custom', path: ['eras'], message: 'an era is listed twice; list each once' })
  for (const { path, value } of scenarioDurations(scenario)) {
    const result = evaluateDuration(value, scenario.client)
    if ('error' in result) ctx.addIssue({ code: 'custom', path, message: `duration ${JSON.stringify(value)}: ${result.error}` })
  }
})

export type Scenario = z.output<typeof ScenarioSchema>
export type ScenarioStep = z.output<typeof Step>
export type CallSpec = z.output<typeof CallStep>['call']
export type CallExpectation = z.output<typeof CallExpectation>
export type WaitSpec = z.output<typeof WaitCondition>
export type TookSpec = z.output<typeof Took>
export type DurationSpec = z.output<typeof Duration>
export type ModelRouteName = z.output<typeof Route>
