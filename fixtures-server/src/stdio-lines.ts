import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** What a received line was, when the SDK cannot accept it as JSON-RPC. */
export type RejectedLine = (sent: unknown, reason: string, raw?: string) => void

/**
 * The SDK's stdio line reader (shared/stdio.js ReadBuffer), line for line the same, that also
 * tells `rejected` about every line it refuses, in order, before the SDK reports the error: the
 * SDK drops such a line with no trace, so a client's malformed request would look like one never
 * sent. Installed on the transport in place of its own reader.
 */
class RecordingReadBuffer {
  private buffer?: Buffer

  constructor(private readonly rejected: RejectedLine) {}

  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length
    if (size > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.clear()
      throw new Error(`ReadBuffer exceeded maximum size of ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes`)
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk
  }

  readMessage(): JSONRPCMessage | null {
    if (!this.buffer) return null
    const index = this.buffer.indexOf('\n')
    if (index === -1) return null
    const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '')
    this.buffer = this.buffer.subarray(index + 1)
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      this.rejected(undefined, 'not JSON', line)
      throw error
    }
    const parsed = JSONRPCMessageSchema.safeParse(value)
    if (parsed.success) return parsed.data
    this.rejected(value, rejectionReason(value), typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : line)
    throw parsed.error
  }

  clear(): void {
    this.buffer = undefined
  }
}

/** Why the SDK's schema refused a JSON value, in a word the log can carry. */
export function rejectionReason(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array (a batch), which is not one JSON-RPC message'
  if (typeof value !== 'object' || value === null) return 'JSON, but not an object'
  return 'not a JSON-RPC message the schema accepts'
}

/** Puts the recording reader in the transport's place (its reader is private; the SDK version is pinned). */
export function recordRejectedLines(transport: StdioServerTransport, rejected: RejectedLine): StdioServerTransport {
  Object.assign(transport, { _readBuffer: new RecordingReadBuffer(rejected) })
  return transport
}
