import { appendFileSync, readFileSync } from 'node:fs'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/**
 * What a fixture process tells about itself, in its wire log, so that whoever judges a client
 * knows every server process it started (and each one's children) whatever the transport and
 * whoever spawned it, and how each one was asked to end: stdin EOF, SIGTERM (SIGKILL leaves no
 * line: its absence, with the process gone, is the evidence).
 */
export type ProcEvent =
  | { event: 'start'; pid: number; ppid: number; pgid?: number }
  | { event: 'child'; pid: number; child: number }
  | { event: 'eof' | 'sigterm'; pid: number }

export interface WireEntry {
  /** recv: the fixture received it; send: the fixture sent it. */
  dir: 'recv' | 'send'
  msg: JSONRPCMessage
  /**
   * A line (stdio) or POST body message (HTTP) the fixture received but could not accept as
   * JSON-RPC: the SDK refused it, so the server never saw it. `msg` is what was sent when it was a
   * JSON object (as sent, unchecked), `{}` otherwise; `raw` is the text when it was no JSON object.
   */
  invalid?: { reason: string; raw?: string }
  /**
   * When the fixture sent it, for what it sends of its own (a notification or request, never an
   * answer): ms on a clock shared by the fixture processes of one run (`performance.timeOrigin +
   * performance.now()`). The gaps of a burst are evidence: a kit bound that follows how spread out
   * a loaded machine made it reads them. Everything else stays clock-free, so a conversation's log
   * is the same across runs. Absent in logs written before it.
   */
  at?: number
}

/**
 * One HTTP request as the fixture saw it, in the same file as the JSON-RPC messages, in order: a
 * client is judged on its HTTP behaviour too (a DELETE at close, the session header it sends).
 */
export interface HttpEntry {
  dir: 'http'
  http: {
    method: string
    path: string
    /** The status answered, or 'dropped' when the connection was cut without an answer. */
    status: number | 'dropped'
    /** The Mcp-Session-Id header the client sent, if any. */
    session?: string
    /** The MCP-Protocol-Version header the client sent, if any. */
    protocolVersion?: string
    /** The Accept header the client sent, if any (a POST MUST list application/json and text/event-stream). */
    accept?: string
    /**
     * The Mcp-Session-Id the fixture answered with (a new session), once the answer carrying it
     * began: an initialize never answered establishes no session, whatever its headers said.
     */
    newSession?: string
    /** 2026-07-28: the protocol version the POST body's `_meta` declared (a modern request), if any. */
    metaVersion?: string
    /** 2026-07-28: the Mcp-Method and Mcp-Name headers the client sent, if any (bounded). */
    mcpMethod?: string
    mcpName?: string
    /** The JSON-RPC method of a POST (the first message of a batch), read even when the request is refused. */
    rpc?: string
    /** OAuth (`http.oauth`): what credential a request to the MCP endpoint carried. */
    bearer?: BearerKind
    /** OAuth: a token request and its outcome, never its secrets or the tokens issued. */
    token?: TokenRecord
  }
}

/**
 * The credential a request to a protected MCP endpoint carried: none, a token the server accepts
 * (`valid`), one it issued that has expired, one it never issued, any token at all in the
 * 401-forever mode (`refused`), or a token in the URL query string, where MCP forbids it.
 */
export type BearerKind = 'none' | 'valid' | 'expired' | 'unknown' | 'refused' | 'query'

/** One request to the fixture's token endpoint. */
export interface TokenRecord {
  /** The grant_type asked for (client_credentials, refresh_token, …), as sent. */
  grant: string
  /** How the client authenticated: client_secret_basic, client_secret_post, private_key_jwt or none. */
  clientAuth: string
  /** issued, or the OAuth error answered (invalid_client, invalid_target, invalid_grant, unsupported_grant_type). */
  outcome: string
  /** The RFC 8707 resource parameter, when sent. */
  resource?: string
  scope?: string
}

/** A fixture process's report about itself (proc-report.ts), in the same file, in order. */
export interface ProcEntry {
  dir: 'proc'
  proc: ProcEvent
}

/**
 * Every JSON-RPC message the fixture sent and received, in order: in memory, in a JSONL file, or
 * both. File appends are synchronous on purpose, so a fixture that exits on a script's order still
 * leaves a complete log behind.
 */
export class WireLog {
  readonly entries: WireEntry[] = []
  private readonly waiters = new Set<{ predicate: (entry: WireEntry) => boolean; resolve: (entry: WireEntry) => void }>()

  readonly http: HttpEntry['http'][] = []

  constructor(private readonly options: { file?: string; memory?: boolean } = {}) {}

  /** An HTTP request, once its answer is known; JSON-RPC readers never see these lines. */
  recordHttp(http: HttpEntry['http']): void {
    if (this.options.file) appendFileSync(this.options.file, `${JSON.stringify({ dir: 'http', http } satisfies HttpEntry)}\n`)
    if (this.options.memory !== false) this.http.push(http)
  }

  /** A process report; file only (an in-process fixture is the kit's own process and never reports). */
  recordProc(proc: ProcEvent): void {
    if (this.options.file) appendFileSync(this.options.file, `${JSON.stringify({ dir: 'proc', proc } satisfies ProcEntry)}\n`)
  }

  record(dir: WireEntry['dir'], msg: JSONRPCMessage): void {
    this.add(dir === 'send' && 'method' in msg ? { dir, msg, at: recordedAt() } : { dir, msg })
  }

  /**
   * Something the client sent that is not a JSON-RPC message (the SDK's schema refused it), as
   * sent: without this the log would hold only what passed, and a malformed request would look
   * like one never sent.
   */
  recordInvalid(sent: unknown, reason: string, raw?: string): void {
    const object = typeof sent === 'object' && sent !== null && !Array.isArray(sent)
    const text = raw ?? (object ? undefined : JSON.stringify(sent) ?? String(sent))
    this.add({ dir: 'recv', msg: (object ? sent : {}) as JSONRPCMessage, invalid: { reason, ...(text === undefined ? {} : { raw: text.length > MAX_RAW ? `${text.slice(0, MAX_RAW)}…` : text }) } })
  }

  private add(entry: WireEntry): void {
    if (this.options.file) appendFileSync(this.options.file, `${JSON.stringify(entry)}\n`)
    if (this.options.memory === false) return
    this.entries.push(entry)
    for (const waiter of this.waiters) {
      if (!waiter.predicate(entry)) continue
      this.waiters.delete(waiter)
      waiter.resolve(entry)
    }
  }

  /** The first entry, already recorded or still to come, that matches. */
  waitFor(predicate: (entry: WireEntry) => boolean): Promise<WireEntry> {
    const seen = this.entries.find(predicate)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve) => this.waiters.add({ predicate, resolve }))
  }
}

/** Monotonic within a process, and near enough across the processes of one run (a stdio restart). */
function recordedAt(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 10) / 10
}

/** How much of a line that is no JSON object the log keeps. */
const MAX_RAW = 2000

/** Reads a JSONL wire file written by a fixture: its JSON-RPC messages (a missing file is an empty log). */
export function readWireFile(path: string): WireEntry[] {
  return readAll(path).filter((entry): entry is WireEntry => entry.dir === 'recv' || entry.dir === 'send')
}

/** The process reports of a wire file, in order (none from an in-process fixture). */
export function readProcLog(path: string): ProcEvent[] {
  return readAll(path).flatMap((entry) => (entry.dir === 'proc' ? [entry.proc] : []))
}

/** The HTTP requests of a wire file, in order (none for stdio). */
export function readHttpLog(path: string): HttpEntry['http'][] {
  return readAll(path).flatMap((entry) => (entry.dir === 'http' ? [entry.http] : []))
}

function readAll(path: string): Array<WireEntry | HttpEntry | ProcEntry> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return []
  }
  return parseWireLog(text).entries
}

/**
 * Pure: a wire file's text as its entries, and as the JSON-RPC messages and HTTP requests among
 * them. Read while a fixture may still be writing: a last line without its newline is not
 * complete yet. A line that is no JSON is named by its number (the file was not written by a fixture).
 */
export function parseWireLog(text: string): { entries: Array<WireEntry | HttpEntry | ProcEntry>; wire: WireEntry[]; http: HttpEntry['http'][] } {
  const complete = text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1)
  const entries = complete.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return []
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw new Error(`line ${index + 1} is not JSON: a wire log is what mcp-fixture --wire FILE writes, one JSON entry per line`)
    }
    const problem = entryProblem(value)
    if (problem) throw new Error(`line ${index + 1} is no wire-log entry (${problem}): a wire log is what mcp-fixture --wire FILE writes, one JSON entry per line`)
    return [value as WireEntry | HttpEntry | ProcEntry]
  })
  return {
    entries,
    wire: entries.filter((entry): entry is WireEntry => entry.dir === 'recv' || entry.dir === 'send'),
    http: entries.flatMap((entry) => (entry.dir === 'http' ? [entry.http] : [])),
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Why a line's JSON is not one of the entries above, as far as its readers rely on their shape
 * (a message is an object, an HTTP request has its method, path and status, a process report its
 * event and pid); undefined when it is one. Names fields only, never their values.
 */
function entryProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a JSON object'
  const { dir } = value
  if (dir === 'recv' || dir === 'send') return isObject(value.msg) ? undefined : '"msg" is not a JSON object'
  if (dir === 'http') {
    const { http } = value
    if (!isObject(http)) return '"http" is not a JSON object'
    if (typeof http.method !== 'string' || typeof http.path !== 'string') return '"http.method" and "http.path" must be strings'
    return typeof http.status === 'number' || http.status === 'dropped' ? undefined : '"http.status" must be a number or "dropped"'
  }
  if (dir === 'proc') {
    const { proc } = value
    return isObject(proc) && typeof proc.event === 'string' && typeof proc.pid === 'number' ? undefined : '"proc" must be an object with an "event" and a "pid"'
  }
  return '"dir" is none of recv, send, http, proc'
}

/** Predicates for the usual questions asked of a wire log. */
export const wire = {
  request: (method: string) => (entry: WireEntry) => !entry.invalid && 'method' in entry.msg && entry.msg.method === method && 'id' in entry.msg,
  notification: (method: string) => (entry: WireEntry) => !entry.invalid && 'method' in entry.msg && entry.msg.method === method && !('id' in entry.msg),
  response: (id: string | number) => (entry: WireEntry) => !entry.invalid && !('method' in entry.msg) && 'id' in entry.msg && entry.msg.id === id,
}
