import { spawn } from 'node:child_process'
import { closeSync } from 'node:fs'
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'
import type { ProcEvent } from './wire.ts'
import type { StdioSpec } from './schema.ts'

/** What the faults need from the process they run in. */
export interface StdioFaultHost {
  exit(code: number): void
  stderr(line: string): void
  /** Tells the kit about this process (its children, the signals it got). */
  report?(event: ProcEvent): void
}

/** One chunk of an endless stdout line, and of a stderr flood, per event-loop turn. */
const FLOOD_CHUNK = 'x'.repeat(64 * 1024)
const STDERR_FLOOD_LINE = `${'noise '.repeat(100)}\n`

/**
 * Wraps the fixture's stdio transport to misbehave with the pipes themselves, the faults a client
 * must survive without waiting forever: dying right after an answer (initialize, say), never
 * reading stdin again, closing stdout while alive, and writing without end.
 */
export class FaultyStdio implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void

  /** The id of the request whose answer sets the fault off, once it has arrived. */
  private triggerId?: string | number
  private fired = false
  /** Set once stdout is closed or carries an endless line: nothing else may be written to it. */
  private stdoutGone = false

  constructor(
    private readonly inner: Transport,
    private readonly spec: StdioSpec,
    private readonly host: StdioFaultHost,
    private readonly exitCode: number,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (!this.fired && this.triggerId === undefined && 'method' in message && message.method === this.spec.after && 'id' in message) this.triggerId = message.id
      this.onmessage?.(message, extra)
    }
    this.inner.onclose = () => this.onclose?.()
    this.inner.onerror = (error) => this.onerror?.(error)
    await this.inner.start()
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.stdoutGone) return
    await this.inner.send(message, options)
    const answersTrigger = this.triggerId !== undefined && 'id' in message && message.id === this.triggerId && !('method' in message)
    if (answersTrigger && !this.fired) {
      this.fired = true
      this.startFault()
    }
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  private startFault(): void {
    switch (this.spec.fault) {
      case 'exit':
        // Writes to a pipe are synchronous on Linux: the answer is out before the process ends.
        return this.host.exit(this.exitCode)
      case 'stop-reading':
        this.host.stderr('[mcp-fixture] no longer reading stdin')
        process.stdin.pause()
        process.stdin.removeAllListeners('data')
        return
      case 'close-stdout':
        this.stdoutGone = true
        closeSync(1)
        this.host.stderr('[mcp-fixture] stdout closed, still running')
        return
      case 'flood-stdout':
        this.stdoutGone = true
        floodStdout()
        return
    }
  }
}

function floodStdout(): void {
  const pump = () => {
    if (process.stdout.write(FLOOD_CHUNK)) setImmediate(pump)
    else process.stdout.once('drain', pump)
  }
  pump()
}

/** The faults that do not depend on the conversation: signals, stderr, children. */
export function startProcessFaults(spec: StdioSpec, host: StdioFaultHost): void {
  // A closed or unread stdin leaves nothing else keeping the process alive.
  const staysAlive = spec.ignoreEof || spec.outliveParent || spec.fault === 'stop-reading' || spec.fault === 'close-stdout'
  if (staysAlive) setInterval(() => {}, 1 << 30)
  if (spec.ignoreSigterm) {
    // Instead of the CLI's own handling (exit 143), not in addition to it.
    process.removeAllListeners('SIGTERM')
    process.on('SIGTERM', () => {
      host.report?.({ event: 'sigterm', pid: process.pid })
      host.stderr('[mcp-fixture] ignoring SIGTERM')
    })
  }
  if (spec.grandchild) {
    // In the fixture's process group, holding none of its pipes. Like the fixture it ends with
    // its parent (by polling ppid), unless outliveParent asks for an orphan only an owner's
    // group kill can end; and a fixture that exits takes it along.
    // The parent's pid is passed, not read at start: a parent that died while the child was still
    // starting would otherwise be taken for the parent (the child's ppid is already the reaper's).
    const script = spec.outliveParent ? 'setInterval(() => {}, 60_000)' : 'setInterval(() => { if (process.ppid !== Number(process.argv[1])) process.exit(0) }, 200)'
    const child = spawn(process.execPath, ['-e', script, String(process.pid)], { stdio: 'ignore' })
    host.stderr(`grandchild ${child.pid}`)
    if (child.pid !== undefined) host.report?.({ event: 'child', pid: process.pid, child: child.pid })
    child.unref()
    if (!spec.outliveParent) process.once('exit', () => child.kill('SIGKILL'))
  }
  if (spec.floodStderr) {
    const pump = () => {
      for (let i = 0; i < 16; i++) process.stderr.write(STDERR_FLOOD_LINE)
      setImmediate(pump)
    }
    pump()
  }
}
