import { appendFileSync, readFileSync } from 'node:fs'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export interface WireEntry {
  /** recv: the fixture received it; send: the fixture sent it. */
  dir: 'recv' | 'send'
  msg: JSONRPCMessage
}

/**
 * Every JSON-RPC message the fixture sent and received, in order: in memory, in a JSONL file, or
 * both. File appends are synchronous on purpose, so a fixture that exits on a script's order still
 * leaves a complete log behind.
 */
export class WireLog {
  readonly entries: WireEntry[] = []
  private readonly waiters = new Set<{ predicate: (entry: WireEntry) => boolean; resolve: (entry: WireEntry) => void }>()

  constructor(private readonly options: { file?: string; memory?: boolean } = {}) {}

  record(dir: WireEntry['dir'], msg: JSONRPCMessage): void {
    const entry = { dir, msg }
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

/** Reads a JSONL wire file written by a fixture (a missing file is an empty log). */
export function readWireFile(path: string): WireEntry[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as WireEntry)
}

/** Predicates for the usual questions asked of a wire log. */
export const wire = {
  request: (method: string) => (entry: WireEntry) => 'method' in entry.msg && entry.msg.method === method && 'id' in entry.msg,
  notification: (method: string) => (entry: WireEntry) => 'method' in entry.msg && entry.msg.method === method && !('id' in entry.msg),
  response: (id: string | number) => (entry: WireEntry) => !('method' in entry.msg) && 'id' in entry.msg && entry.msg.id === id,
}
