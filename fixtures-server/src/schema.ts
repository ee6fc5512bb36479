import { OAUTH_FAULTS } from './oauth-faults.ts'
import { z } from 'zod'
import { AsksShape, EarlyAsksShape } from './asks-schema.ts'
import { BeyondSchema } from './beyond-schema.ts'
import { ERAS } from './era.ts'

/**
 * The behaviour format: everything a fixture does is data validated here. Objects are strict, so
 * a typo is an error naming its path. README.md documents every key with an example.
 */

const ms = z.int().min(0)
const positive = z.int().min(1)
const exitCode = z.int().min(0).max(255)
const JsonObject = z.record(z.string(), z.json())

export const IMAGE_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const
/** Formats that can be padded to an exact byte size and stay decodable. */
export const PADDABLE_FORMATS = ['png', 'jpeg', 'gif'] as const

const TextBlock = z
  .strictObject({ type: z.literal('text'), text: z.string().optional(), bytes: ms.optional() })
  .refine((b) => (b.text === undefined) !== (b.bytes === undefined), 'give exactly one of text or bytes')

const ImageBlock = z
  .strictObject({
    type: z.literal('image'),
    format: z.enum(IMAGE_FORMATS).optional(),
    /** Raw base64 (or not) sent as is, instead of a generated image. */
    data: z.string().optional(),
    /** Overrides the declared type, e.g. PNG bytes declared image/jpeg. */
    mimeType: z.string().optional(),
    size: z.int().min(1).max(64).optional(),
    /** Pad the generated image to exactly this many bytes (still a valid image). */
    bytes: positive.optional(),
    repeat: positive.optional(),
  })
  .refine((b) => (b.format === undefined) !== (b.data === undefined), 'give exactly one of format or data')
  .refine((b) => b.data === undefined || b.mimeType !== undefined, { message: 'data needs a mimeType', path: ['mimeType'] })
  .refine((b) => b.bytes === undefined || (PADDABLE_FORMATS as readonly string[]).includes(b.format ?? ''), {
    message: `bytes works with format ${PADDABLE_FORMATS.join(', ')}`,
    path: ['bytes'],
  })

const AudioBlock = z
  .strictObject({
    type: z.literal('audio'),
    format: z.literal('wav').optional(),
    data: z.string().optional(),
    mimeType: z.string().optional(),
  })
  .refine((b) => (b.format === undefined) !== (b.data === undefined), 'give exactly one of format or data')
  .refine((b) => b.data === undefined || b.mimeType !== undefined, { message: 'data needs a mimeType', path: ['mimeType'] })

const ResourceBlock = z
  .strictObject({
    type: z.literal('resource'),
    uri: z.string(),
    mimeType: z.string().optional(),
    text: z.string().optional(),
    blob: z.string().optional(),
  })
  .refine((b) => (b.text === undefined) !== (b.blob === undefined), 'give exactly one of text or blob')

const ResourceLinkBlock = z.strictObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
})

export const BLOCK_TYPES = ['text', 'image', 'audio', 'resource', 'resource_link', 'echo', 'env', 'status', 'raw'] as const

export const BlockSchema = z.discriminatedUnion('type', [
  TextBlock,
  ImageBlock,
  AudioBlock,
  ResourceBlock,
  ResourceLinkBlock,
  /** A text block with the call's arguments as JSON. */
  z.strictObject({ type: z.literal('echo') }),
  /** A text block listing the environment variable NAMES the fixture sees (never values). */
  z.strictObject({ type: z.literal('env'), prefix: z.string().optional() }),
  /** A text block with the fixture's status as JSON (calls, generation, cancellations, starts). */
  z.strictObject({ type: z.literal('status') }),
  /** Any JSON sent verbatim as a content block, e.g. an unknown block type. */
  z.strictObject({ type: z.literal('raw'), value: z.json() }),
])

const ResultSchema = z.strictObject({
  content: z.array(BlockSchema).default([]),
  isError: z.boolean().optional(),
  structuredContent: z.json().optional(),
  _meta: JsonObject.optional(),
})

const toolShape = {
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  /** Absent: `{type: object}`. null: omitted from the listing. Anything else is sent verbatim. */
  inputSchema: z.json().optional(),
  outputSchema: z.json().optional(),
  annotations: JsonObject.optional(),
  execution: z.strictObject({ taskSupport: z.enum(['forbidden', 'optional', 'required']) }).optional(),
  result: ResultSchema.optional(),
  /**
   * Answer with this JSON as the response's `result`, as is: an array, null, a string or a number
   * make a response no client can accept (a result MUST be an object), so a client's handling of
   * an unusable answer can be tested.
   */
  rawResult: z.json().optional(),
  /** Answer with this JSON-RPC error instead of a result. */
  error: z.strictObject({ code: z.int(), message: z.string(), data: z.json().optional() }).optional(),
  delayMs: ms.optional(),
  /** notifications/progress every intervalMs for durationMs (when the call has a progressToken). */
  progress: z.strictObject({ intervalMs: positive, durationMs: ms }).optional(),
  /** Never answer (a cancellation is still recorded). */
  hang: z.boolean().optional(),
  /** Kill the process in the middle of the call: true uses crash.exitCode (default 1). */
  exit: z.union([z.literal(true), exitCode]).optional(),
  /** Written to stderr on every call. */
  stderr: z.union([z.string(), z.array(z.string())]).optional(),
  /** Asks of the client during a call (asks-schema.ts). */
  ...AsksShape,
  /** How a task-augmented call of this tool runs (tasks.ts); any tool with it makes the fixture declare `tasks`. */
  task: z
    .strictObject({
      /** pollInterval in every task answer; absent: none suggested. */
      pollIntervalMs: ms.optional(),
      /** The ttl granted; absent: the one requested (null when none was); null: unlimited. */
      ttlMs: ms.nullable().optional(),
      /** The task runs this long after its creation before its outcome shows. */
      workMs: ms.default(0),
      /** …and answers `working` to this many tasks/get first. */
      polls: ms.default(0),
      /** done: completed or failed as result/error say; never: working for ever; lost: every later tasks/* request answers -32602. */
      end: z.enum(['done', 'never', 'lost']).default('done'),
      /** notifications/progress (to the call's progressToken) with every `working` answer to tasks/get. */
      progress: z.boolean().default(false),
      /** When it would end, the task needs the requestor first: input_required until a tasks/result waits on it. */
      input: z.boolean().default(false),
      /** One deliberate breach of a tasks MUST, for testing a checker (tasks.ts TASK_FAULTS says what each does). */
      fault: z.enum(['start-completed', 'early-result', 'cancel-terminal', 'unknown-id-code', 'list-omits', 'reopen', 'no-ttl', 'no-related-meta', 'cancel-keeps-working', 'reused-id', 'progress-token']).optional(),
    })
    .optional(),
}

const OUTCOMES = ['result', 'error', 'hang', 'exit'] as const

export const ToolSchema = z
  .strictObject(toolShape)
  .refine((t) => OUTCOMES.filter((k) => t[k] !== undefined && t[k] !== false).length <= 1, {
    message: `choose at most one of ${OUTCOMES.join(', ')}`,
  })

/** A change to existing tools: every given field replaces the tool's own. */
const ToolUpdateSchema = z.strictObject({ ...toolShape, name: z.string() })

const StepSchema = z.strictObject({
  /** 1-based number of the notification this step belongs to. */
  at: positive,
  add: z.array(ToolSchema).optional(),
  remove: z.array(z.string()).optional(),
  rename: z.array(z.strictObject({ from: z.string(), to: z.string() })).optional(),
  update: z.array(ToolUpdateSchema).optional(),
  /** Apply this step's changes this long after its notification ("notify before ready"). */
  lagMs: ms.optional(),
})

const ListChangedSchema = z
  .strictObject({
    /** Advertise `tools.listChanged` in the capabilities (notifications are sent either way). */
    capability: z.boolean().default(true),
    /** Start the timeline this long after the first client is initialized (the default trigger). */
    afterMs: ms.optional(),
    /** Start once the Nth tools/call has been answered. */
    afterCalls: positive.optional(),
    /** Start once a call to this tool has been answered. */
    onTool: z.string().optional(),
    /** How many notifications; default: the last step's `at`, or 1. */
    count: ms.optional(),
    intervalMs: ms.default(0),
    /** Default lag between a notification and its step's changes. */
    lagMs: ms.default(0),
    /** Put the list generation in tools/list and notification `_meta` ("fixture/generation"). */
    generation: z.boolean().default(false),
    steps: z.array(StepSchema).default([]),
  })
  .refine((l) => [l.afterMs, l.afterCalls, l.onTool].filter((v) => v !== undefined).length <= 1, {
    message: 'choose at most one trigger: afterMs, afterCalls or onTool',
  })

const PaginationSchema = z.strictObject({
  pageSize: positive,
  /**
   * repeat: from the second page on, nextCursor is the cursor just received, forever. cycle: the
   * last page's nextCursor is the second page's cursor, forever (a loop no consecutive comparison sees).
   */
  cursor: z.enum(['opaque', 'repeat', 'cycle']).default('opaque'),
  /** Empty pages chained after the last real one (long cursor chains). */
  emptyPages: ms.default(0),
  /** Requests for this page (2 = the first cursor) answer -32602 Invalid cursor. */
  failPage: z.int().min(2).optional(),
})

const CrashSchema = z.strictObject({
  exitCode: exitCode.default(1),
  onStart: z.boolean().default(false),
  afterMs: ms.optional(),
  /** Exit once the Nth tools/call has been answered. */
  afterCalls: positive.optional(),
  /** Requests never answered, e.g. initialize or tools/list. */
  hangOn: z.array(z.string()).default([]),
  /** Misbehave (exit and hang) only on the first N starts, counted in the state file. */
  starts: positive.optional(),
  /** Where starts are counted; MCP_FIXTURE_STATE overrides it. */
  stateFile: z.string().optional(),
})

const FaultSchema = z
  .strictObject({
    /** The Nth POST to the endpoint (1-based; GET streams are not counted, their timing races). */
    request: positive.optional(),
    /** The JSON-RPC method of a POST (the first message of a batch). */
    method: z.string().optional(),
    /**
     * The Nth POST of `method` (1-based): counted by method, so whatever else a client sends first
     * (a 2026-07-28 client's server/discover probe, a ping) does not move the fault.
     */
    occurrence: positive.optional(),
    /** A tools/call of this tool. */
    tool: z.string().optional(),
    /** fail: an HTTP error; drop: destroy the socket; never: no response; flood: a huge answer. */
    action: z.enum(['fail', 'drop', 'never', 'flood']),
    status: z.int().min(400).max(599).default(500),
    /** fail: the error body as written (default: a JSON-RPC error "Scripted HTTP <status>"). */
    body: z.string().optional(),
    /** fail: a hostile server that quotes every request header back in its error body. */
    echoHeaders: z.boolean().optional(),
    /** flood: a 200 answer whose one text block is this many bytes, produced lazily as it is read. */
    bytes: positive.optional(),
    /** flood: the answer as one JSON document (default) or as one SSE event. */
    as: z.enum(['json', 'sse']).default('json'),
    /** Fire for the first N matches only; default every match. */
    times: positive.optional(),
  })
  .refine((f) => f.request !== undefined || f.method !== undefined || f.tool !== undefined, 'give request, method or tool')
  .refine((f) => (f.action === 'flood') === (f.bytes !== undefined), { message: 'flood needs bytes, and only flood takes it', path: ['bytes'] })

/** Client authentication methods at the token endpoint (RFC 6749 §2.3.1, RFC 7523 §2.2). */
export const TOKEN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const
/** How the fixture's authorization endpoint answers (`http.oauth.authorize`): `approve`, or a broken variant. */
export const AUTHORIZE_ANSWERS = ['approve', 'wrong-iss', 'no-iss', 'wrong-state', 'deny'] as const

/**
 * An OAuth 2.1 resource server with its own authorization server (oauth-*.ts): the MCP endpoint
 * wants a bearer token, the fixture's origin serves both metadata documents and a token endpoint.
 */
const OAuthSchema = z
  .strictObject({
    clientId: z.string().min(1),
    /** For client_secret_basic and client_secret_post. */
    clientSecret: z.string().min(1).optional(),
    /** PEM (SPKI) public key that private_key_jwt assertions must verify against (RS256 or ES256). */
    publicKey: z.string().min(1).optional(),
    /** Advertised in the server metadata; default: every method the credentials above allow. */
    authMethods: z.array(z.enum(TOKEN_AUTH_METHODS)).min(1).optional(),
    /** Tokens the resource accepts without any grant: a bearer token handed out of band. */
    staticTokens: z.array(z.string().min(1)).default([]),
    /** Issued access tokens stop working this long after they were issued (default: never). */
    tokenLifetimeMs: positive.optional(),
    /** Issue a refresh token with every grant: valid, or already revoked (refused as invalid_grant). */
    refreshTokens: z.enum(['none', 'valid', 'revoked']).default('none'),
    /** Every bearer token is refused, however fresh: 401 forever. */
    refuseAllTokens: z.boolean().default(false),
    /** `scopes_supported` in the protected-resource metadata. */
    scopes: z.array(z.string()).optional(),
    /** Refuse a token request whose RFC 8707 `resource` is not this endpoint (invalid_target), as MCP requires clients to send it. */
    requireResource: z.boolean().default(false),
    /**
     * Serve the authorization-code grant with PKCE S256: an authorization endpoint that approves
     * every valid request at once (no person), as the answer says: `approve`, or a broken variant
     * (an `iss` of another issuer, no `iss` though advertised, another `state`, or `access_denied`).
     */
    authorize: z.enum(AUTHORIZE_ANSWERS).optional(),
    /** Serve dynamic client registration (RFC 7591) at /register: public native clients. */
    registration: z.boolean().default(false),
    /**
     * A tools/call needs this scope too: a token issued without it gets 403 with
     * `error="insufficient_scope"` and the scopes it needs (MCP 2025-11-25 "Runtime Insufficient Scope Errors").
     */
    stepUpScope: z.string().min(1).optional(),
    /** Break one MCP authorization sentence each (oauth-faults.ts), for server mode's authorization checks. */
    faults: z.array(z.enum(OAUTH_FAULTS)).optional(),
  })
  .refine(
    (o) => o.clientSecret !== undefined || o.publicKey !== undefined || o.staticTokens.length > 0 || o.authorize !== undefined,
    'give clientSecret, publicKey, staticTokens or authorize',
  )

const HttpSchema = z.strictObject({
  /** 401 unless this header carries this value; `echo`: the 401 body quotes the header that was sent. */
  auth: z.strictObject({ header: z.string(), value: z.string(), echo: z.boolean().default(false) }).optional(),
  /** OAuth: bearer tokens, metadata discovery and a token endpoint (README: OAuth). */
  oauth: OAuthSchema.optional(),
  /**
   * Serve the legacy 2024-11-05 HTTP+SSE transport only: GET on the endpoint opens the event
   * stream (first event `endpoint`), POSTs go to the URL it names, and a POST to the endpoint
   * itself is refused with 405 (what a client probing for Streamable HTTP detects).
   */
  legacySse: z.boolean().default(false),
  /** A session serves this many POSTs (initialize included), then it is gone: 404. */
  sessionRequests: positive.optional(),
  /** Requests of these methods are answered with one JSON body, not the SDK's event stream (a server that answers polls as JSON). */
  jsonAnswers: z.array(z.string()).default([]),
  faults: z.array(FaultSchema).default([]),
})

/** What a stdio fixture does with its pipes and signals; HTTP ignores the section. */
const StdioSchema = z.strictObject({
  /**
   * Right after the answer named by `after` is written: exit at once (crash.exitCode), stop
   * reading stdin for good, close stdout and live on, or send one endless line on stdout.
   */
  fault: z.enum(['exit', 'stop-reading', 'close-stdout', 'flood-stdout']).optional(),
  /** The request whose (first) answer sets the fault off. */
  after: z.enum(['initialize', 'tools/list']).default('initialize'),
  /** Keep running when stdin closes. */
  ignoreEof: z.boolean().default(false),
  /** Survive SIGTERM (it is logged on stderr); SIGKILL still ends the process. */
  ignoreSigterm: z.boolean().default(false),
  /** Do not end when the parent dies (a fixture normally polls its ppid): an orphan candidate. */
  outliveParent: z.boolean().default(false),
  /** Write stderr lines as fast as the pipe takes them, forever. */
  floodStderr: z.boolean().default(false),
  /** Start one child in the fixture's process group ("grandchild PID" on stderr); it ends with the fixture unless outliveParent. */
  grandchild: z.boolean().default(false),
})

export const BehaviourSchema = z.strictObject({
  name: z.string().default('mcp-fixture'),
  version: z.string().default('0.0.0'),
  /**
   * Which protocol era the fixture speaks (era.ts): legacy (an `initialize` handshake, up to
   * 2025-11-25), modern (2026-07-28: `_meta` on every request, server/discover, no sessions;
   * initialize is refused) or dual (both, chosen by how each client opens).
   */
  era: z.enum(ERAS).default('legacy'),
  description: z.string().optional(),
  instructions: z.string().optional(),
  /**
   * The protocolVersion every initialize is answered with, whatever the client asked: a
   * counter-offer (a published revision) or one no client knows (the client should disconnect).
   */
  protocolVersion: z.string().optional(),
  /**
   * Send the client a ping (its answer is in the wire log): `afterMs` after each session is
   * initialized, or once the `afterCalls`-th tools/call has been answered (a fixed place in the wire).
   */
  ping: z
    .strictObject({ afterMs: ms.optional(), afterCalls: positive.optional() })
    .refine((p) => p.afterMs === undefined || p.afterCalls === undefined, 'choose afterMs or afterCalls')
    .optional(),
  seed: z.int().default(1),
  /**
   * false: the initialize result declares no `tools` capability, though tools/list and tools/call
   * are still served (as a careless server might): a client should not ask for tools at all.
   */
  declareTools: z.boolean().default(true),
  tools: z.array(ToolSchema).default([]),
  pagination: PaginationSchema.optional(),
  /** resources, prompts, completions and logFlood (beyond-schema.ts). */
  ...BeyondSchema,
  /** earlyAsks and askTimeoutMs (asks-schema.ts). */
  ...EarlyAsksShape,
  listChanged: ListChangedSchema.optional(),
  crash: CrashSchema.optional(),
  http: HttpSchema.optional(),
  stdio: StdioSchema.optional(),
  /** Lines written to stderr at start. */
  stderr: z.array(z.string()).optional(),
  /** JSONL wire log path; MCP_FIXTURE_WIRE overrides it. */
  wire: z.string().optional(),
  /** stdio: at start, write the whole environment (names and values) as JSON to this file. */
  envDump: z.string().optional(),
})

export type Behaviour = z.output<typeof BehaviourSchema>
export type BehaviourInput = z.input<typeof BehaviourSchema>
export type ToolSpec = z.output<typeof ToolSchema>
export type TaskSpec = NonNullable<ToolSpec['task']>
export type ToolUpdate = z.output<typeof ToolUpdateSchema>
export type BlockSpec = z.output<typeof BlockSchema>
export type StepSpec = z.output<typeof StepSchema>
export type ListChangedSpec = z.output<typeof ListChangedSchema>
export type PaginationSpec = z.output<typeof PaginationSchema>
export type CrashSpec = z.output<typeof CrashSchema>
export type HttpSpec = z.output<typeof HttpSchema>
export type StdioSpec = z.output<typeof StdioSchema>
export type FaultSpec = z.output<typeof FaultSchema>
export type OAuthSpec = z.output<typeof OAuthSchema>
