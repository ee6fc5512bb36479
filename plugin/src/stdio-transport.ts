import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { BridgeError, withoutStack } from './errors.ts'
import type { Redact } from './redact.ts'
import { StderrTail } from './stderr-tail.ts'
import { waitAtMost } from './wait.ts'

export interface StdioChildOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  /** Wait after closing stdin before SIGTERM, and after SIGTERM before SIGKILL. */
  killGraceMs: number
  /** Largest single JSON-RPC line accepted from the child. */
  maxMessageBytes: number
  onStderrLine?: (line: string) => void
  /** Applied to every stderr line before it is kept or handed on. */
  redact?: Redact
}

/** Every child still alive, so a host that exits normally does not leave servers behind. */
const liveChildren = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of liveChildren) killGroup(child, 'SIGKILL')
})

/**
 * A stdio client transport that owns its child completely. Unlike the SDK's, it starts the server
 * in its own process group, so shutdown reaches grandchildren too (an `npx` wrapper, a shell
 * script), keeps a bounded tail of stderr for error messages, and uses a configurable grace period.
 */
export class StdioChildTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  readonly stderr: StderrTail
  private child?: ChildProcess
  private readonly readBuffer: ReadBuffer
  private exited?: Promise<void>

  constructor(private readonly options: StdioChildOptions) {
    this.stderr = new StderrTail(options.redact)
    this.readBuffer = new ReadBuffer({ maxBufferSize: options.maxMessageBytes })
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioChildTransport already started')
    const { command, args, env, cwd } = this.options
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true, shell: false })
      this.child = child
      liveChildren.add(child)
      this.exited = new Promise((done) => child.once('close', () => done()))
      child.once('error', (error) => {
        liveChildren.delete(child)
        const explained = explainSpawnError(error, this.options)
        reject(explained)
        this.onerror?.(explained)
      })
      child.once('spawn', () => resolve())
      child.once('close', () => {
        liveChildren.delete(child)
        this.onclose?.()
      })
      child.stdin?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk))
      child.stderr?.on('data', (chunk: Buffer) => {
        for (const line of this.stderr.push(chunk)) this.options.onStderrLine?.(line)
      })
    })
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!stdin || stdin.destroyed) throw new Error('Not connected')
    if (!stdin.write(serializeMessage(message))) await new Promise((resolve) => stdin.once('drain', resolve))
  }

  /** stdin EOF, then SIGTERM to the group, then SIGKILL, each after the grace period. */
  async close(): Promise<void> {
    const child = this.child
    if (!child || !this.exited) return
    const exited = this.exited
    const settled = () => child.exitCode !== null || child.signalCode !== null
    const waitGrace = () => waitAtMost(exited, this.options.killGraceMs)
    child.stdin?.end()
    await waitGrace()
    if (!settled()) {
      killGroup(child, 'SIGTERM')
      await waitGrace()
    }
    if (!settled()) killGroup(child, 'SIGKILL')
    await exited
    // Grandchildren may outlive a leader that exited on its own.
    killGroup(child, 'SIGKILL')
  }

  private receive(chunk: Buffer): void {
    try {
      this.readBuffer.append(chunk)
    } catch (error) {
      this.onerror?.(error as Error)
      void this.close()
      return
    }
    for (;;) {
      let message: JSONRPCMessage | null
      try {
        message = this.readBuffer.readMessage()
      } catch (error) {
        // A line that is not JSON-RPC (stray output on stdout) is reported and skipped.
        this.onerror?.(error as Error)
        continue
      }
      if (message === null) return
      this.onmessage?.(message)
    }
  }
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
    return config(`cwd "${cwd}" is not an existing directory: set cwd to the server's working directory, or leave it out to use the host's.`)
  }
  if (error.code === 'ENOENT') {
    const where = command.includes('/') ? 'that path does not exist' : `it is not on the PATH the server is given (${options.env.PATH ?? 'no PATH'})`
    return config(`command "${command}" was not found: ${where}; set command to an absolute path or add the directory to PATH with env.`)
  }
  if (error.code === 'EACCES') return config(`command "${command}" is not executable: check its permissions or point command at the right file.`)
  return error
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // The group is already gone.
  }
}
