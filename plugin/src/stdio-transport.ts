import type { ChildProcess } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { isAbsolute, resolve as resolvePath } from 'node:path'
import { ProtocolErrorCode, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client'
import { invalidRequest, killGroup, LineReader, oversizedRequestMethod, oversizedResponseId, parseJson, PipeWriter, type Redact, refusedAnswer, settlesWithin, spawnGroup, StderrTail, stopGroup, withoutStack } from '@mcp-bridge/process'
import { BridgeError } from './errors.ts'
import { deserializeMessage, malformedAnswer } from './json-rpc-message.ts'
import { OVERSIZED_MARK } from './request-failure.ts'

export interface StdioChildOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  /** Wait after closing stdin before SIGTERM, and after SIGTERM before SIGKILL. */
  killGraceMs: number
  /** Largest single JSON-RPC line accepted from the child. */
  maxMessageBytes: number
  /** Bytes a server that does not read its stdin may leave waiting before sends fail. */
  maxPendingWriteBytes: number
  onStderrLine?: (line: string) => void
  /** Applied to every stderr line before it is kept or handed on. */
  redact?: Redact
}

/**
 * When the host died without stopping its servers, the watchdog's wait between SIGTERM and SIGKILL:
 * the kill grace, but no more than this, so that a dead host's servers are gone within a second.
 */
const WATCHDOG_GRACE_MS = 500
/** After SIGKILL, how long to wait for the exit to be reported (the kernel needs no grace). */
const KILLED_WAIT_MS = 1000
/** After stdout ends, how long the rest of stderr may take before the connection counts as closed. */
const STDERR_LAST_WORDS_MS = 200
/** After the exit, how long stdout and stderr may take to deliver what is left in the pipes. */
const STREAMS_WAIT_MS = 500

/**
 * A stdio client transport that owns its child completely. Unlike the SDK's, it starts the server
 * in its own process group, so shutdown reaches grandchildren too (an `npx` wrapper, a shell
 * script), with a watchdog that ends the group if the host dies first (on POSIX), keeps a
 * bounded tail of stderr for error messages, and uses a configurable grace period.
 *
 * Nothing it does waits on the child without a bound: writes go through @mcp-bridge/process's
 * PipeWriter (a wait for 'drain' ends when the child cannot read; past `maxPendingWriteBytes`
 * waiting in the pipe, sends fail at once); the connection counts as closed as soon as stdout ends
 * or the child exits, whichever is first (a server that closes stdout and lives on can never
 * answer again); and close() escalates on a clock.
 */
export class StdioChildTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  readonly stderr: StderrTail
  private child?: ChildProcess
  private readonly lines: LineReader
  /** Settles when the child has exited (or never started). */
  private exited?: Promise<void>
  /** Settles when stdout and stderr are closed too. */
  private streamsClosed?: Promise<void>
  /** Settles when the server and its watchdog have both exited. */
  private ended?: Promise<void>
  private readonly writer: PipeWriter
  /** How the server process ended (`the server process exited (code 3) before answering`), once it has. */
  exitReason?: string
  private closeReported = false
  private stopping?: Promise<void>
  private readonly outstanding = new Set<string | number>()

  constructor(private readonly options: StdioChildOptions) {
    this.stderr = new StderrTail(options.redact)
    this.lines = new LineReader(options.maxMessageBytes)
    this.writer = new PipeWriter(options.maxPendingWriteBytes, () => this.exited!)
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioChildTransport already started')
    const { command, args, env, cwd } = this.options
    return new Promise((resolve, reject) => {
      // In its own process group, with a watchdog that ends the group if this process dies
      // without stopping it (SIGKILL, a crash): @mcp-bridge/process.
      const group = spawnGroup(command, args, { env, cwd, graceMs: Math.min(this.options.killGraceMs, WATCHDOG_GRACE_MS) })
      const child = group.child
      this.child = child
      this.ended = group.ended
      this.exited = group.exited
      this.streamsClosed = new Promise((done) => child.once('close', () => done()))
      child.once('error', (error) => {
        this.writer.fail(error)
        const explained = explainSpawnError(error, this.options)
        reject(explained)
        this.onerror?.(explained)
      })
      child.once('spawn', () => resolve())
      child.once('exit', (code, signal) => {
        this.exitReason = `the server process exited (${signal ? `signal ${signal}` : `code ${code}`}) before answering`
        this.writer.childExited(new Error(this.exitReason))
        // Whatever the server left in its group is an orphan now: nothing will ever ask it to stop.
        killGroup(child, 'SIGKILL')
      })
      child.once('close', () => this.reportClose())
      // A server that closed its stdout can never answer again, even if it lives on. A dying one
      // closes both pipes at once: its last stderr lines (quoted in the error) get a moment.
      child.stdout?.once('end', () => void settlesWithin(this.streamsClosed!, STDERR_LAST_WORDS_MS).then(() => this.reportClose()))
      child.stdin?.on('error', (error) => {
        this.writer.fail(error)
        this.onerror?.(error)
      })
      if (child.stdin) this.writer.watch(child.stdin)
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk))
      child.stderr?.on('data', (chunk: Buffer) => {
        for (const line of this.stderr.push(chunk)) this.options.onStderrLine?.(line)
      })
    })
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    this.writer.check(stdin)
    this.track(message)
    await this.writer.write(stdin, serializeMessage(message))
  }

  /** stdin EOF, then SIGTERM to the group, then SIGKILL, each after the grace period. */
  close(): Promise<void> {
    const child = this.child
    if (!child) return Promise.resolve()
    this.stopping ??= this.stop(child)
    return this.stopping
  }

  private async stop(child: ChildProcess): Promise<void> {
    await stopGroup(child, { exited: this.exited!, closeInput: !this.writer.failed, graceMs: this.options.killGraceMs, killedWaitMs: KILLED_WAIT_MS })
    // Grandchildren may outlive a leader that exited on its own, and hold its pipes open.
    killGroup(child, 'SIGKILL')
    await settlesWithin(this.streamsClosed!, STREAMS_WAIT_MS)
    // The watchdog too: it was released when the server exited, and leaves at once.
    await settlesWithin(this.ended!, STREAMS_WAIT_MS)
    this.reportClose()
  }

  private reportClose(): void {
    if (this.closeReported) return
    this.closeReported = true
    this.onclose?.()
  }

  private receive(chunk: Buffer): void {
    for (const event of this.lines.push(chunk)) {
      if (event.kind === 'oversized') {
        const method = oversizedRequestMethod(event.head, event.tail)
        if (method !== undefined) this.skippedRequest(event.bytes, method, oversizedResponseId(event.head, event.tail))
        else this.skipped(event.bytes, oversizedResponseId(event.head, event.tail))
        continue
      }
      let message: JSONRPCMessage
      try {
        message = deserializeMessage(event.text)
      } catch (error) {
        const value = parseJson(event.text)
        if (this.answerRefused(value) || this.requestRefused(value)) continue
        // A line that is not JSON-RPC (stray output on stdout) is reported and skipped.
        this.onerror?.(error as Error)
        continue
      }
      if (!('method' in message) && 'id' in message && message.id !== undefined) this.outstanding.delete(message.id)
      this.onmessage?.(message)
    }
  }

  /**
   * A line above the limit was read past, never held. When it was the answer to a request in
   * flight, that request alone fails, with the size and the limit; the connection and every
   * other call carry on. A line nobody can be blamed for is reported and forgotten.
   */
  private skipped(bytes: number, ids: Array<string | number>): void {
    const limit = this.options.maxMessageBytes
    const id = ids.find((candidate) => this.outstanding.has(candidate))
    if (id === undefined) {
      this.onerror?.(new OversizedLineError(`skipped a ${bytes}-byte line from the server: it is above the ${limit}-byte limit and answers no request in flight`))
      return
    }
    this.outstanding.delete(id)
    const message = `the answer was ${bytes} bytes, above the ${limit}-byte limit (limits.maxResultBytes plus the JSON-RPC envelope); it was skipped`
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InternalError, message, data: { [OVERSIZED_MARK]: true, bytes, limit } } })
  }

  /**
   * A line above the limit that is a request (or notification) of the server's: its id is in the
   * server's id space, so it fails no call of ours, whatever its value. A request whose id can be
   * read is answered with -32600 (it was too large to be read), so the server need not wait for
   * an answer that cannot come; the line is reported either way.
   */
  private skippedRequest(bytes: number, method: string, ids: Array<string | number>): void {
    const limit = this.options.maxMessageBytes
    const named = JSON.stringify(method.slice(0, 100))
    const id = ids[0]
    if (id === undefined) {
      this.onerror?.(new OversizedLineError(`skipped a ${bytes}-byte ${named} message from the server (a notification, or a request whose id could not be read): it is above the ${limit}-byte limit`))
      return
    }
    const message = `the request was ${bytes} bytes, above the client's ${limit}-byte limit for one message; it was not read`
    this.reply({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InvalidRequest, message } })
    this.onerror?.(new OversizedLineError(`skipped a ${bytes}-byte ${named} request from the server: it is above the ${limit}-byte limit; answered with error -32600`))
  }

  /**
   * A line the SDK refuses that is meant as the answer to a request in flight (a "result" that is
   * an array, say) fails that request at once with what is wrong, where the SDK would drop it and
   * leave the call to its timeout. True when the line was such an answer.
   */
  private answerRefused(value: unknown): boolean {
    const refused = refusedAnswer(value)
    if (!refused || !this.outstanding.has(refused.id)) return false
    this.outstanding.delete(refused.id)
    this.onmessage?.(malformedAnswer(refused))
    return true
  }

  /**
   * A request of the server's that the SDK refuses (an id of 1.5, null or past 2^53, "params" that
   * is not an object) is answered -32600 Invalid Request, under its id or null, as JSON-RPC 2.0
   * asks, instead of being dropped with the server left waiting. True when the line was one.
   */
  private requestRefused(value: unknown): boolean {
    const invalid = invalidRequest(value)
    if (!invalid) return false
    const reply = { jsonrpc: '2.0', id: invalid.id, error: { code: ProtocolErrorCode.InvalidRequest, message: `Invalid Request: ${invalid.problem}` } }
    this.reply(reply as JSONRPCMessage)
    this.onerror?.(new InvalidRequestError(`answered a request from the server that is not valid JSON-RPC with -32600: ${invalid.problem}`))
    return true
  }

  /** An answer of ours to a request of the server's; a failed send means the connection is ending, and nobody waits. */
  private reply(message: JSONRPCMessage): void {
    this.send(message).catch(() => {})
  }

  /** Requests sent and not yet answered or cancelled: the only ids an oversized line may answer. */
  private track(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message) this.outstanding.add(message.id)
    else if ('method' in message && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: string | number } | undefined)?.requestId
      if (requestId !== undefined) this.outstanding.delete(requestId)
    }
  }
}

/** An oversized line that answers no request in flight: worth a warning, not a lost connection. */
export class OversizedLineError extends Error {
  override name = 'OversizedLineError'
}

/** A server request the client could not read and answered -32600: worth a (bounded) warning, not a lost connection. */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError'
}

/**
 * "spawn node ENOENT" names neither the field nor the fix, and is said both for a missing
 * executable and for a missing working directory. These are configuration errors: retrying
 * cannot fix them.
 */
export function explainSpawnError(error: NodeJS.ErrnoException, options: Pick<StdioChildOptions, 'command' | 'cwd' | 'env'>): Error {
  const { command, cwd } = options
  const config = (message: string) => withoutStack(new BridgeError(`mcp-client config: ${message}`, 'INVALID_CONFIG'))
  if (cwd !== undefined && (!existsSync(cwd) || !statSync(cwd).isDirectory())) {
    // No final period: the connection appends "; then reload the plugin". A relative cwd is the
    // host's working directory's business, not the YAML file's: name where it led, and the tag
    // that anchors it to the file.
    const fix = isAbsolute(cwd)
      ? `set cwd to the server's working directory, or leave it out to use the host's`
      : `a relative cwd is resolved against the host's working directory, which gives ${resolvePath(cwd)}; in cordis.yml write cwd: !path ${cwd} for a directory relative to the file, or set an absolute path, or leave cwd out to use the host's`
    return config(`cwd "${cwd}" is not an existing directory: ${fix}`)
  }
  if (error.code === 'ENOENT') {
    const where = command.includes('/') ? 'that path does not exist' : `it is not on the PATH the server is given (${options.env.PATH ?? 'no PATH'})`
    return config(`command "${command}" was not found: ${where}; set command to an absolute path or add the directory to PATH with env.`)
  }
  if (error.code === 'EACCES') return config(`command "${command}" is not executable: check its permissions or point command at the right file.`)
  return error
}
