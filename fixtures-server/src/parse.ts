import type { z } from 'zod'
import { FileFormatError, formatPath, issuesLine } from './file-format.ts'
import { BehaviourSchema, BLOCK_TYPES, type Behaviour } from './schema.ts'

/**
 * Validates a behaviour a person gave a CLI: the error is one line (file-format.ts) naming where
 * the first problem is (`at`: `<file>:<line>`, or `--json`), the problem and the fix. `basePath`:
 * where the behaviour sits in its document (`server` in a scenario file).
 */
export function checkBehaviour(value: unknown, at: (path: readonly PropertyKey[]) => string, basePath: readonly PropertyKey[] = []): Behaviour {
  const parsed = BehaviourSchema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new FileFormatError(issuesLine(parsed.error.issues, at, basePath))
}

/** Validates a behaviour document; the error lists every problem with its path. */
export function parseBehaviour(value: unknown, source = 'behaviour'): Behaviour {
  const parsed = BehaviourSchema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new Error(`Invalid fixture ${source}:\n${formatIssues(parsed.error.issues)}`)
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.flatMap(describeIssue).map((line) => `  - ${line}`).join('\n')
}

function describeIssue(issue: z.core.$ZodIssue): string[] {
  // One line per unknown key, with the key in the path, reads better than zod's list.
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${formatPath([...issue.path, key])}: unknown key`)
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator === 'type') {
    return [`${formatPath(issue.path)}: unknown block type (expected one of ${BLOCK_TYPES.join(', ')})`]
  }
  return [`${formatPath(issue.path)}: ${issue.message}`]
}
