import { BehaviourSchema } from '@mcp-bridge/fixtures-server'
import { z } from 'zod'

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
  timeoutMs: z.int().min(1).max(60_000).default(10_000),
})

const Step = z.union([
  CallStep,
  z.strictObject({ wait: WaitCondition }),
  /** Kill the server process (stdio) or close the fixture (HTTP), as a crash would. */
  z.strictObject({ kill: z.literal(true) }),
  /** HTTP: start the fixture again at the same URL. */
  z.strictObject({ restart: z.literal(true) }),
  /** Check the client's tools (raw names) right now. */
  z.strictObject({ expectTools: z.array(z.string()) }),
  /** Another plugin of the host registers a tool under this public name (squatting). */
  z.strictObject({ squat: z.string() }),
  z.strictObject({ dispose: z.literal(true) }),
])

const Expectations = z.strictObject({
  /** The client's tools at the end, by raw name (before disposal). */
  tools: z.array(z.string()).optional(),
  /** Exact public names for raw names, for scenarios about naming. */
  publicNames: z.record(z.string(), z.string()).optional(),
  /** Regular expressions each of which some client log line must match. */
  logs: z.array(Regex).default([]),
  /** Regular expressions no client log line may match. */
  noLogs: z.array(Regex).default([]),
  /** The client's connection state at the end. */
  state: z.enum(['connecting', 'connected', 'reconnecting', 'stopped']).optional(),
  /** Bounds on how often the fixture received each method. */
  received: z.record(z.string(), z.strictObject({ min: z.int().min(0).optional(), max: z.int().min(0).optional() })).default({}),
  /** Files in the attachment store at the end. */
  attachments: z.int().min(0).optional(),
  /** A second client instance with the same serverName must fail to load. */
  duplicateServerNameRejected: z.boolean().optional(),
})

/** Whom the scenario judges (conformance/src/client/applicability.ts). */
const Applies = z.strictObject({
  /**
   * every-client (the default); bridge: about a bridge naming contract; listChanged / reconnect:
   * about a behaviour the spec leaves to the client, judged for clients whose driver declares it.
   */
  to: z.enum(['every-client', 'bridge', 'listChanged', 'reconnect']).default('every-client'),
  reason: z.string().optional(),
  /** Further check ids of this scenario that judge bridges only, each with its reason. */
  bridgeOnly: z.record(z.string(), z.string()).default({}),
  /** Check ids that enforce a SHOULD for clients (the sentence quoted): a client's breach is a warning. */
  should: z.record(z.string(), z.string()).default({}),
})

export const ScenarioSchema = z.strictObject({
  /** Equals the file name without `.yaml`: kebab-case, named after the behaviour. */
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'use kebab-case: lowercase words joined by "-"'),
  title: z.string().min(1),
  /** The spec sections or seed passages the scenario enforces. */
  spec: z.array(z.strictObject({ ref: z.string(), url: z.url().optional() })).min(1),
  transports: z.array(z.enum(['stdio', 'http'])).min(1).default(['stdio', 'http']),
  /** The fixture's behaviour (fixtures-server/README.md). */
  server: BehaviourSchema,
  /** Client configuration on top of the adapter's defaults (for our plugin: its Config fields). */
  client: z.record(z.string(), z.json()).default({}),
  /** Environment variables set in the client's process for the run (secret canaries). */
  hostEnv: z.record(z.string(), z.string()).default({}),
  steps: z.array(Step).default([]),
  expect: Expectations.default({ logs: [], noLogs: [], received: {} }),
  applies: Applies.default({ to: 'every-client', bridgeOnly: {}, should: {} }),
  /** Parts of the transcript that are not deterministic for this scenario, with the reason. */
  transcript: z.strictObject({ wire: z.boolean().default(true), reason: z.string().optional() }).default({ wire: true }),
})

export type Scenario = z.output<typeof ScenarioSchema>
export type ScenarioStep = z.output<typeof Step>
export type CallSpec = z.output<typeof CallStep>['call']
export type CallExpectation = z.output<typeof CallExpectation>
export type WaitSpec = z.output<typeof WaitCondition>
export type ModelRouteName = z.output<typeof Route>
