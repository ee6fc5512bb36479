import { spawn, type ChildProcess } from 'node:child_process'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

/**
 * A client transport over a child we spawn ourselves, so tests can see what the SDK's
 * StdioClientTransport hides: the exit code, the raw stdout and stderr.
 */
export class ChildTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  readonly child: ChildProcess
  readonly exited: Promise<Exit>
  readonly stdout: Buffer[] = []
  stderr = ''
  private readonly buffer = new ReadBuffer()

  constructor(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] })
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })))
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()))
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout.push(chunk)
      this.buffer.append(chunk)
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message)
    })
    this.child.stdin!.on('error', () => {})
    this.child.once('close', () => this.onclose?.())
  }

  get pid(): number {
    return this.child.pid!
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.child.exitCode !== null || this.child.stdin!.destroyed) throw new Error('Not connected')
    this.child.stdin!.write(serializeMessage(message))
  }

  /** Ends stdin (a fixture exits by itself) and waits for the exit. */
  async close(): Promise<void> {
    this.child.stdin!.end()
    await this.exited
  }
}
