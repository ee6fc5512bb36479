/**
 * Pure bookkeeping of one connection: every message the kit sent and the server sent, what the
 * JSON-RPC envelope rules make of each server message, and the kit's answer to each server
 * request. Both wires feed it, so every exchange of every check is judged by the envelope rules.
 */
import { MetaKeyTally } from '../meta-keys.ts'
import type { WireEntry } from './types.ts'

export type EnvelopeRule = 'version' | 'error-responses' | 'result-or-error' | 'response-ids' | 'no-response-to-notifications' | 'request-ids' | 'notification-ids'

export interface Finding {
  rule: EnvelopeRule
  /** What is wrong, naming the message (its id and method where known). */
  message: string
  /** The offending message, and the client message it relates to when there is one. */
  wire: WireEntry[]
}

export interface ServerRequest {
  id: unknown
  method: string
  /** Arrived before the kit sent notifications/initialized. */
  early: boolean
  message: Record<string, unknown>
  answer: Record<string, unknown>
  /** The client capability the request needs, when the kit did not declare it. */
  undeclared?: string
}

export interface ServerNotification {
  method: string
  params: unknown
  message: Record<string, unknown>
  /** notifications/progress: whether its token is one the kit sent with a request still pending when it arrived. */
  progress?: 'active' | 'finished' | 'unknown'
  /** notifications/cancelled with a requestId: whether the server had sent a request with that id. */
  cancels?: 'known' | 'unknown'
}

export interface LedgerCounts {
  /** Every JSON-RPC message (request, notification or response) the server sent. */
  messages: number
  responses: number
  errorResponses: number
  notificationsSent: number
}

/** Server → client methods and the client capability each needs (the kit declares none). */
const CLIENT_CAPABILITY: Record<string, string> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
  'tasks/get': 'tasks',
  'tasks/result': 'tasks',
  'tasks/list': 'tasks',
  'tasks/cancel': 'tasks',
}

const key = (id: unknown) => `${typeof id}:${String(id)}`

/**
 * A notification's verdict class ('' when nothing is wrong with it), from what the session
 * negotiated; given by the evaluators (evaluate/notifications.ts) once initialize is answered.
 */
export type NotificationClassifier = (notification: ServerNotification) => string

/** Notifications kept in full per method and verdict class: the evidence the reports show. */
export const KEEP_PER_CLASS = 10
/** Notifications kept in full in all (those that arrive before a classifier, too); the rest are counted. */
export const MAX_KEPT = 1_000
/** Distinct methods counted one by one; the rest share one count. */
const MAX_METHODS = 1_000
/** Progress tokens whose last value is remembered, to judge that progress increases. */
const MAX_TOKENS = 10_000
export const OTHER_METHODS = '(other methods)'
/** Envelope findings kept in full per rule (the evidence); every one is counted (findingCount). */
export const KEEP_FINDINGS_PER_RULE = 20
/** Server requests kept in full per kind (undeclared, early, ping, other); every one is counted (requestCounts). */
export const KEEP_REQUESTS_PER_KIND = 10
/** Server request ids remembered to find a reused one; past this, later ids are still judged for their type. */
const MAX_SERVER_IDS = 10_000
/** Distinct error codes (per method answered) remembered with their first answer; past this, the rest are counted apart. */
export const MAX_ERROR_CODES = 100

/** One error code the server answered a method with: how often, and its first error response as evidence. */
export interface ErrorCodeSeen {
  code: number
  count: number
  /** The method of the request it answered, when the kit sent one with its id. */
  method?: string
  first: WireEntry
}

/** How many server requests of each kind arrived; the verdicts read these, not the kept ones. */
export interface RequestCounts {
  all: number
  pings: number
  /** Needing a client capability the kit did not declare. */
  undeclared: number
  /** Arrived before notifications/initialized (pings and logging/ included). */
  early: number
  /** Arrived before notifications/initialized, other than ping and logging/ (the ones the early rule is about). */
  earlyOther: number
}

export interface ProgressViolation {
  before: ServerNotification
  after: ServerNotification
}

export class Ledger {
  /** The first KEEP_FINDINGS_PER_RULE findings of each rule: a flood of bad envelopes must not cost memory without end. */
  readonly findings: Finding[] = []
  /** Every finding, counted per rule as it arrives. */
  private readonly findingCounts = new Map<EnvelopeRule, number>()
  /** The first KEEP_REQUESTS_PER_KIND server requests of each kind; every one is counted in requestCounts. */
  readonly serverRequests: ServerRequest[] = []
  readonly requestCounts: RequestCounts = { all: 0, pings: 0, undeclared: 0, early: 0, earlyOther: 0 }
  private readonly keptRequests = { undeclared: 0, earlyOther: 0, ping: 0, other: 0 }
  /**
   * The notifications kept in full (up to KEEP_PER_CLASS per method and class, MAX_KEPT in all):
   * a flood must not cost memory without end. Every notification is counted and classified on
   * arrival (tally), and progress order is judged on arrival (progressViolation).
   */
  readonly notifications: ServerNotification[] = []
  /** Notifications received, per method. */
  readonly methodCounts = new Map<string, number>()
  /** `${method}\u0000${class}` → how many arrived (once classified). */
  private readonly classCounts = new Map<string, number>()
  /** Notifications not kept before a classifier was set, so never classified. */
  unclassified = 0
  /** The first notifications/progress whose value did not increase for its token. */
  progressViolation: ProgressViolation | undefined
  private readonly lastProgress = new Map<string, ServerNotification>()
  private classifier: NotificationClassifier | undefined
  private readonly classOf = new WeakMap<ServerNotification, string>()
  readonly counts: LedgerCounts = { messages: 0, responses: 0, errorResponses: 0, notificationsSent: 0 }
  /** `code method` → how often the server answered that method with that integer error code (the first MAX_ERROR_CODES pairs). */
  readonly errorCodes = new Map<string, ErrorCodeSeen>()
  /** Error responses past MAX_ERROR_CODES distinct pairs, counted only. */
  errorCodesUnkept = 0
  private readonly sentRequests = new Map<string, { method: string; message: unknown }>()
  private readonly answered = new Set<string>()
  /** Request ids named inside notifications the kit sent (a cancellation's requestId). */
  private readonly named = new Map<string, unknown>()
  private readonly serverIds = new Set<string>()
  /** progressToken → the id of the request the kit sent it with. */
  private readonly tokens = new Map<string, string>()
  private lastNotification: unknown
  private initialized = false
  /** A response to the kit's initialize arrived: the initialization phase has begun, and no longer only begun. */
  private initializeAnswered = false
  /** The ids of the kit's initialize requests, as text. */
  private readonly initializeIds = new Set<string>()
  /**
   * Notifications (but notifications/message, which the lifecycle lets a server send before the
   * handshake ends) that arrived before any answer to initialize: the first KEEP_REQUESTS_PER_KIND
   * kept; every one counted in `beforeInitializeCount`. Requests are lifecycle/requests-before-initialized's:
   * the lifecycle states its own SHOULD NOT for them.
   */
  readonly beforeInitialize: Record<string, unknown>[] = []
  beforeInitializeCount = 0
  /** The `_meta` keys of every server message, judged against the base protocol's naming rules. */
  readonly metaKeys = new MetaKeyTally()

  /** A message the kit sent. */
  sent(message: Record<string, unknown>): void {
    if (typeof message.method !== 'string') return
    if (message.id !== undefined) {
      this.sentRequests.set(key(message.id), { method: message.method, message })
      if (message.method === 'initialize') this.initializeIds.add(String(message.id))
      const meta = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta
      if (meta?.progressToken !== undefined) this.tokens.set(key(meta.progressToken), key(message.id))
      return
    }
    this.counts.notificationsSent++
    this.lastNotification = message
    if (message.method === 'notifications/initialized') this.initialized = true
    const params = message.params as Record<string, unknown> | undefined
    if (params && params.requestId !== undefined) this.named.set(key(params.requestId), message)
  }

  /**
   * A message the server sent. Returns the kit's answer when it is a request. `refusal` marks an
   * HTTP error body, where an id-less error is the transport refusing a message, not a reply.
   */
  received(value: unknown, context: { refusal?: boolean; toNotification?: unknown } = {}): Record<string, unknown> | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    const message = value as Record<string, unknown>
    this.metaKeys.scan(message)
    if (typeof message.method === 'string') {
      this.preInitialize(message)
      return this.request(message)
    }
    if ('result' in message || 'error' in message || 'id' in message) {
      // Loosely, as the wires match it ("1" answers 1): a wrong id type is response-ids' to judge, not a missing answer.
      if (message.id !== undefined && message.id !== null && this.initializeIds.has(String(message.id))) this.initializeAnswered = true
      this.response(message, context)
    }
    return undefined
  }

  private preInitialize(message: Record<string, unknown>): void {
    if (this.initializeAnswered || message.id !== undefined || message.method === 'notifications/message') return
    this.beforeInitializeCount++
    if (this.beforeInitialize.length < KEEP_REQUESTS_PER_KIND) this.beforeInitialize.push(message)
  }

  /** Every JSON-RPC message the server sends is counted, and its "jsonrpc" member judged. */
  private envelope(message: Record<string, unknown>, label: string, entry: WireEntry): void {
    this.counts.messages++
    if (message.jsonrpc === '2.0') return
    const found = 'jsonrpc' in message ? `"jsonrpc": ${JSON.stringify(message.jsonrpc)}` : 'no "jsonrpc" member'
    this.finding({ rule: 'version', message: `${label} has ${found}, not "jsonrpc": "2.0"`, wire: [entry] })
  }

  private request(message: Record<string, unknown>): Record<string, unknown> | undefined {
    const method = message.method as string
    const id = message.id
    const entry: WireEntry = { dir: 'server→client', message }
    if (id === undefined) {
      this.envelope(message, `${method} notification`, entry)
      this.notification({ method, params: message.params, message, ...this.notificationContext(method, message.params) })
      return undefined
    }
    this.envelope(message, `${method} request with id ${JSON.stringify(id)}`, entry)
    // A notifications/* method with an id is read as the request it is, and named as the notification it was meant to be.
    if (method.startsWith('notifications/')) this.finding({ rule: 'notification-ids', message: `${method} notification with id ${JSON.stringify(id)}`, wire: [entry] })
    if (id === null || !(typeof id === 'string' || Number.isInteger(id))) {
      this.finding({ rule: 'request-ids', message: `${method} request with id ${JSON.stringify(id)}, not a string or an integer`, wire: [entry] })
    } else if (this.serverIds.has(key(id))) {
      this.finding({ rule: 'request-ids', message: `${method} request reuses id ${JSON.stringify(id)}`, wire: [entry] })
    }
    if (this.serverIds.size < MAX_SERVER_IDS) this.serverIds.add(key(id))
    const undeclared = CLIENT_CAPABILITY[method]
    const answer = this.answerFor(id ?? null, method, undeclared)
    this.serverRequest({ id, method, early: !this.initialized, message, answer, ...(undeclared ? { undeclared } : {}) })
    return answer
  }

  /** How many findings of `rule` arrived (the kept ones are the first few). */
  findingCount(rule: EnvelopeRule): number {
    return this.findingCounts.get(rule) ?? 0
  }

  private finding(finding: Finding): void {
    const n = (this.findingCounts.get(finding.rule) ?? 0) + 1
    this.findingCounts.set(finding.rule, n)
    if (n <= KEEP_FINDINGS_PER_RULE) this.findings.push(finding)
  }

  /** Counted and judged on arrival; kept while its kind has fewer than KEEP_REQUESTS_PER_KIND. */
  private serverRequest(request: ServerRequest): void {
    const c = this.requestCounts
    c.all++
    const ping = request.method === 'ping'
    const earlyOther = request.early && !ping && !request.method.startsWith('logging/')
    if (ping) c.pings++
    if (request.undeclared) c.undeclared++
    if (request.early) c.early++
    if (earlyOther) c.earlyOther++
    const k = this.keptRequests
    // A request is evidence for each verdict it bears on: kept when any of its kinds still has room.
    const room = [request.undeclared ? 'undeclared' : undefined, earlyOther ? 'earlyOther' : undefined, ping ? 'ping' : !request.undeclared && !earlyOther ? 'other' : undefined].filter(
      (kind): kind is keyof typeof k => kind !== undefined && k[kind as keyof typeof k] < KEEP_REQUESTS_PER_KIND,
    )
    if (room.length === 0) return
    for (const kind of room) k[kind]++
    this.serverRequests.push(request)
  }

  /**
   * Judge notifications on arrival from now on (the ones kept so far are classified now). The
   * verdicts then need only the counts and the kept evidence.
   */
  classify(classifier: NotificationClassifier): void {
    if (this.classifier) return
    this.classifier = classifier
    for (const n of this.notifications) this.count(n, classifier(n))
  }

  get classified(): boolean {
    return this.classifier !== undefined
  }

  /** How many notifications of `method` (every method when undefined) arrived in a class that `match` accepts (every class when undefined). */
  tally(method?: string, match?: (cls: string) => boolean): number {
    if (!match) return method === undefined ? [...this.methodCounts.values()].reduce((a, b) => a + b, 0) : (this.methodCounts.get(method) ?? 0)
    let total = 0
    for (const [k, n] of this.classCounts) {
      const [m, cls] = k.split('\u0000') as [string, string]
      if ((method === undefined || m === method) && match(cls)) total += n
    }
    return total
  }

  /** The class a kept notification was given ('' when nothing is wrong with it, undefined before classification). */
  classOfKept(notification: ServerNotification): string | undefined {
    return this.classOf.get(notification)
  }

  private notification(n: ServerNotification): void {
    const method = this.methodCounts.has(n.method) || this.methodCounts.size < MAX_METHODS ? n.method : OTHER_METHODS
    this.methodCounts.set(method, (this.methodCounts.get(method) ?? 0) + 1)
    this.progressOrder(n)
    if (!this.classifier) {
      if (this.notifications.length < MAX_KEPT) this.notifications.push(n)
      else this.unclassified++
      return
    }
    const kept = this.count(n, this.classifier(n))
    if (kept <= KEEP_PER_CLASS && this.notifications.length < MAX_KEPT) this.notifications.push(n)
  }

  /** Counts a classified notification; returns how many of its method and class there are now. */
  private count(n: ServerNotification, cls: string): number {
    this.classOf.set(n, cls)
    const method = this.methodCounts.has(n.method) ? n.method : OTHER_METHODS
    const k = `${method}\u0000${cls}`
    const total = (this.classCounts.get(k) ?? 0) + 1
    this.classCounts.set(k, total)
    return total
  }

  /** Each notifications/progress must increase its token's progress: judged as it arrives. */
  private progressOrder(n: ServerNotification): void {
    if (n.method !== 'notifications/progress' || this.progressViolation) return
    const params = n.params as { progressToken?: unknown; progress?: unknown } | undefined
    if (typeof params !== 'object' || params === null || typeof params.progress !== 'number' || params.progressToken === undefined) return
    const token = key(params.progressToken)
    const before = this.lastProgress.get(token)
    if (before && params.progress <= (before.params as { progress: number }).progress) {
      this.progressViolation = { before, after: n }
      return
    }
    if (before || this.lastProgress.size < MAX_TOKENS) this.lastProgress.set(token, n)
  }

  /** What a notification refers to, as things stood when it arrived. */
  private notificationContext(method: string, params: unknown): Pick<ServerNotification, 'progress' | 'cancels'> {
    if (typeof params !== 'object' || params === null) return {}
    const p = params as Record<string, unknown>
    if (method === 'notifications/progress' && p.progressToken !== undefined) {
      const request = this.tokens.get(key(p.progressToken))
      return { progress: request === undefined ? 'unknown' : this.answered.has(request) ? 'finished' : 'active' }
    }
    if (method === 'notifications/cancelled' && p.requestId !== undefined) return { cancels: this.serverIds.has(key(p.requestId)) ? 'known' : 'unknown' }
    return {}
  }

  /** The kit's client side: ping gets {} (the spec's MUST), everything else an error, as no capability was declared. */
  private answerFor(id: unknown, method: string, undeclared: string | undefined): Record<string, unknown> {
    if (method === 'ping') return { jsonrpc: '2.0', id, result: {} }
    const why = undeclared ? `the client did not declare the ${undeclared} capability` : 'mcp-conformance does not implement it'
    return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method} (${why})` } }
  }

  private response(message: Record<string, unknown>, context: { refusal?: boolean; toNotification?: unknown }): void {
    const entry: WireEntry = { dir: 'server→client', message }
    const hasResult = 'result' in message
    const hasError = 'error' in message
    if (context.refusal && !hasResult && (message.id === undefined || message.id === null)) return
    this.counts.responses++
    const to = message.id === undefined || message.id === null ? undefined : this.sentRequests.get(key(message.id))
    const label = `response ${message.id === undefined ? 'without an id' : `id ${JSON.stringify(message.id)}`}${to ? ` (to ${to.method})` : ''}`
    this.envelope(message, label, entry)
    if (hasResult === hasError) {
      this.finding({ rule: 'result-or-error', message: `${label} has ${hasResult ? 'both a result and an error' : 'neither a result nor an error'}`, wire: [entry] })
    }
    if (hasError) this.errorShape(message, label, entry, to?.method)
    if (context.toNotification !== undefined) {
      this.finding({ rule: 'no-response-to-notifications', message: `${label} came back for ${describe(context.toNotification)}`, wire: [{ dir: 'client→server', message: context.toNotification }, entry] })
      return
    }
    this.matchId(message, label, entry)
  }

  private errorShape(message: Record<string, unknown>, label: string, entry: WireEntry, method: string | undefined): void {
    this.counts.errorResponses++
    const error = message.error
    if (typeof error !== 'object' || error === null || Array.isArray(error)) {
      this.finding({ rule: 'error-responses', message: `${label}: "error" is ${JSON.stringify(error)}, not an object`, wire: [entry] })
      return
    }
    const { code, message: text } = error as Record<string, unknown>
    if (!Number.isInteger(code)) this.finding({ rule: 'error-responses', message: `${label}: error code ${JSON.stringify(code) ?? 'missing'} is not an integer`, wire: [entry] })
    else this.errorCode(code as number, method, entry)
    if (typeof text !== 'string') this.finding({ rule: 'error-responses', message: `${label}: error message ${JSON.stringify(text) ?? 'missing'} is not a string`, wire: [entry] })
  }

  private errorCode(code: number, method: string | undefined, entry: WireEntry): void {
    const k = `${code} ${method ?? ''}`
    const seen = this.errorCodes.get(k)
    if (seen) seen.count++
    else if (this.errorCodes.size < MAX_ERROR_CODES) this.errorCodes.set(k, { code, count: 1, ...(method ? { method } : {}), first: entry })
    else this.errorCodesUnkept++
  }

  private matchId(message: Record<string, unknown>, label: string, entry: WireEntry): void {
    const id = message.id
    if (id === undefined || id === null) {
      // Allowed only for a request whose id could not be read; the kit sends none.
      const after = this.lastNotification
      const blame = after ? `; the last notification the kit sent was ${describe(after)}, which must get no response` : ''
      this.finding({ rule: after ? 'no-response-to-notifications' : 'response-ids', message: `${label}, although every request the kit sent had a readable id${blame}`, wire: after ? [{ dir: 'client→server', message: after }, entry] : [entry] })
      return
    }
    const loose = typeof id === 'string' && /^\d+$/.test(id) ? key(Number(id)) : undefined
    if (!this.sentRequests.has(key(id)) && loose !== undefined && this.sentRequests.has(loose)) {
      // The wire still reads it as the answer (as the SDK's client would), so this is its only report.
      const request = this.sentRequests.get(loose)!
      this.finding({ rule: 'response-ids', message: `${label} answers request ${id} (${request.method}), whose id is the number ${id}, not a string`, wire: [{ dir: 'client→server', message: request.message }, entry] })
      if (this.answered.has(loose)) return
      this.answered.add(loose)
      return
    }
    const k = key(id)
    const sent = this.sentRequests.get(k)
    if (!sent) {
      const notification = this.named.get(k)
      if (notification) {
        this.finding({ rule: 'no-response-to-notifications', message: `${label} answers the request id named in ${describe(notification)}; the kit never sent a request with that id`, wire: [{ dir: 'client→server', message: notification }, entry] })
      } else this.finding({ rule: 'response-ids', message: `${label} matches no request the kit sent`, wire: [entry] })
      return
    }
    if (this.answered.has(k)) {
      this.finding({ rule: 'response-ids', message: `a second response to request ${JSON.stringify(id)} (${sent.method})`, wire: [{ dir: 'client→server', message: sent.message }, entry] })
      return
    }
    this.answered.add(k)
  }
}

function describe(notification: unknown): string {
  const method = typeof notification === 'object' && notification !== null ? (notification as Record<string, unknown>).method : undefined
  return typeof method === 'string' ? method : 'a notification'
}
