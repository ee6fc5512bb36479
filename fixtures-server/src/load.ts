import { InputFileError, readInputFileSync } from '@mcp-bridge/process'
import { dirname, isAbsolute, resolve } from 'node:path'
import { parse } from 'yaml'
import { parseBehaviour } from './parse.ts'
import type { Behaviour } from './schema.ts'

/** Behaviours are data a person writes: even one with inline images stays far below this. */
export const MAX_BEHAVIOUR_BYTES = 16 * 1024 * 1024

/**
 * Reads a YAML or JSON behaviour file. Relative `wire` and `crash.stateFile` paths are taken
 * from the file's folder, so a behaviour means the same thing whatever the working directory.
 */
export function loadBehaviourFile(path: string): Behaviour {
  let value: unknown
  try {
    // A FIFO, a device or a directory is refused at once, and so is a file over the cap.
    value = parse(readInputFileSync(path, { maxBytes: MAX_BEHAVIOUR_BYTES, what: 'the file' }))
  } catch (error) {
    const reason = error instanceof InputFileError ? `it ${error.reason}` : (error as Error).message
    throw new Error(`Cannot read fixture behaviour ${path}: ${reason}`)
  }
  // A conformance scenario (id, steps, expect … and the behaviour under server:) is served as is,
  // so a client in any language can be pointed at scenarios/<id>.yaml without extracting anything.
  if (isScenario(value)) value = value.server
  return resolvePaths(parseBehaviour(value, `behaviour ${path}`), dirname(resolve(path)))
}

function isScenario(value: unknown): value is { server: unknown } {
  return typeof value === 'object' && value !== null && 'server' in value && 'id' in value && 'spec' in value
}

export function resolvePaths(behaviour: Behaviour, base: string): Behaviour {
  const from = (path: string | undefined) => (path === undefined || isAbsolute(path) ? path : resolve(base, path))
  const crash = behaviour.crash && { ...behaviour.crash, stateFile: from(behaviour.crash.stateFile) }
  return { ...behaviour, wire: from(behaviour.wire), ...(crash && { crash }) }
}
