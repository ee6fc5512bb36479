import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Behaviour } from './schema.ts'
import { WireLog } from './wire.ts'

/** Where a fixture keeps its outside state; each overrides the behaviour's own setting. */
export interface RuntimeOptions {
  /** JSONL wire log (env MCP_FIXTURE_WIRE in the CLI). */
  wireFile?: string
  /** Start counter for crash loops (env MCP_FIXTURE_STATE in the CLI). */
  stateFile?: string
  /** Also keep the wire log in memory (in-process fixtures). */
  memoryWire?: boolean
}

export interface Runtime {
  start: number
  wire?: WireLog
}

/** Counts this start and opens the wire log: the only file state a fixture has. */
export function prepareRuntime(behaviour: Behaviour, options: RuntimeOptions = {}): Runtime {
  const stateFile = options.stateFile ?? behaviour.crash?.stateFile
  if (behaviour.crash?.starts !== undefined && !stateFile) {
    throw new Error('crash.starts needs a state file: set crash.stateFile or MCP_FIXTURE_STATE')
  }
  const start = stateFile ? countStart(stateFile) : 1
  const file = options.wireFile ?? behaviour.wire
  if (file) mkdirSync(dirname(file), { recursive: true })
  const wire = file || options.memoryWire ? new WireLog({ file, memory: options.memoryWire ?? false }) : undefined
  return { start, wire }
}

/** Reads, increments and writes `{"starts": n}`; a missing or unreadable file counts as zero. */
export function countStart(file: string): number {
  let starts = 0
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { starts?: unknown }
    if (typeof state.starts === 'number') starts = state.starts
  } catch {
    // First start.
  }
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify({ starts: starts + 1 })}\n`)
  return starts + 1
}
