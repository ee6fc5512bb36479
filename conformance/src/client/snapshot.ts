import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { CheckResult } from '../model.ts'

/** Compares a transcript with its snapshot file; writes it instead when asked to. */
export function compareSnapshot(file: string, actual: string, update: boolean): CheckResult {
  const base = { id: 'transcript/snapshot', title: 'Transcripts match the stored snapshot', spec: { ref: 'DESIGN §Determinism' } }
  const expected = existsSync(file) ? readFileSync(file, 'utf8') : undefined
  if (expected === actual) return { ...base, status: 'pass', message: `matches ${relative(file)}` }
  if (update) {
    writeFileSync(file, actual)
    return { ...base, status: 'pass', message: `${expected === undefined ? 'wrote' : 'updated'} ${relative(file)}` }
  }
  if (expected === undefined) return { ...base, status: 'fail', message: `missing snapshot ${relative(file)}: run with --update-snapshots and review it` }
  return { ...base, status: 'fail', message: `transcript differs from ${relative(file)}:\n${firstDifference(expected, actual)}` }
}

function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n')
  const b = actual.split('\n')
  const at = a.findIndex((line, i) => line !== b[i])
  const line = at === -1 ? a.length : at
  return [`line ${line + 1}:`, `- ${a[line] ?? '(end)'}`, `+ ${b[line] ?? '(end)'}`].join('\n')
}

function relative(file: string): string {
  const at = file.lastIndexOf('/scenarios/')
  return at === -1 ? file : file.slice(at + 1)
}
