import { InputFileError, readInputFileSync } from '@mcp-bridge/process'
import { dirname, isAbsolute, resolve } from 'node:path'
import { FileFormatError, parseYamlFile } from './file-format.ts'
import { checkBehaviour } from './parse.ts'
import type { Behaviour } from './schema.ts'

/** Behaviours are data a person writes: even one with inline images stays far below this. */
export const MAX_BEHAVIOUR_BYTES = 16 * 1024 * 1024

/** How a behaviour starts, for the fix of an empty file. */
const BEHAVIOUR_EXAMPLE = 'a mapping such as `tools: [{ name: echo }]`; fixtures-server/README.md lists the keys'

/**
 * Reads a YAML or JSON behaviour file. Relative `wire` and `crash.stateFile` paths are taken
 * from the file's folder, so a behaviour means the same thing whatever the working directory.
 * Anything wrong with the file is a FileFormatError in one line: the file and line, the place,
 * the problem and the fix.
 */
export function loadBehaviourFile(path: string): Behaviour {
  let text: string
  try {
    // A FIFO, a device or a directory is refused at once, and so is a file over the cap.
    text = readInputFileSync(path, { maxBytes: MAX_BEHAVIOUR_BYTES, what: 'the file' })
  } catch (error) {
    const reason = error instanceof InputFileError ? `it ${error.reason}` : (error as Error).message
    throw new FileFormatError(`Cannot read fixture behaviour ${path}: ${reason}`)
  }
  const file = parseYamlFile(text, path, 'fixture behaviour', BEHAVIOUR_EXAMPLE)
  // A conformance scenario (id, steps, expect … and the behaviour under server:) is served as is,
  // so a client in any language can be pointed at scenarios/<id>.yaml without extracting anything.
  const { value } = file
  const behaviour = isScenario(value) ? checkBehaviour(value.server, file.at, ['server']) : checkBehaviour(value, file.at)
  return resolvePaths(behaviour, dirname(resolve(path)))
}

function isScenario(value: unknown): value is { server: unknown } {
  return typeof value === 'object' && value !== null && 'server' in value && 'id' in value && 'spec' in value
}

export function resolvePaths(behaviour: Behaviour, base: string): Behaviour {
  const from = (path: string | undefined) => (path === undefined || isAbsolute(path) ? path : resolve(base, path))
  const crash = behaviour.crash && { ...behaviour.crash, stateFile: from(behaviour.crash.stateFile) }
  return { ...behaviour, wire: from(behaviour.wire), ...(crash && { crash }) }
}
