/**
 * One recorded wire, fed to every check: a real stdio process replays a canned answer per method
 * (fixtures/canned/tasks-server.json), so many checks judge the very same answers. No two checks
 * may then contradict each other on one answer (a pass and a fail under the same sentence), every
 * fail must stand under a MUST, MUST NOT or the schema, and nothing may be a harness error.
 */
import { lineServerSource } from './support/line-server.ts'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckResult, SuiteResult } from '../src/model.ts'
import { normalise } from '../src/server/registry/sentences/coverage.ts'
import { runServerSuite } from '../src/server/run.ts'

const CANNED = join(import.meta.dirname, 'fixtures/canned/tasks-server.json')

// Answers each request with the canned answer for its method (-32601 for any other), under the request's id.
const REPLAY = lineServerSource(
  "const { answers } = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'))",
  "answers[message.method] ?? { error: { code: -32601, message: 'Method not found' } }",
)

let dir: string
let suite: SuiteResult
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-canned-'))
  const script = join(dir, 'replay.cjs')
  await writeFile(script, REPLAY)
  const calls = [
    { name: 'research', arguments: {} },
    { name: 'plain', arguments: {} },
  ]
  suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [script, CANNED] }, { calls })
}, 60_000)
afterAll(() => rm(dir, { recursive: true, force: true }))

/**
 * The server's messages a check shows as evidence, by their text without the id: the replay gives
 * every request of a method the same answer, so two connections' initialize answers are one answer.
 */
function answersOf(check: CheckResult): string[] {
  return (check.wire ?? []).flatMap((entry) => {
    const e = entry as { dir?: string; message?: unknown }
    if (e.dir !== 'server→client' || typeof e.message !== 'object' || e.message === null) return []
    const { id: _, ...rest } = e.message as Record<string, unknown>
    return [JSON.stringify(rest)]
  })
}

/** The keyword sentences a quote states (a check may quote one sentence of a passage another quotes whole). */
function sentencesOf(quote: string): string[] {
  return quote
    .split(/(?<=[.])\s+(?=[A-Z])/)
    .map(normalise)
    .filter((piece) => /\b(MUST|SHOULD|REQUIRED)\b/.test(piece))
}

describe('one canned wire judged by every check', () => {
  it('runs every check to a verdict: no harness error', () => {
    expect(suite.checks.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([])
    expect(suite.checks.filter((c) => c.id.startsWith('tasks/')).length).toBe(14)
  })

  it('never has two checks pass and fail one answer under a sentence both quote', () => {
    const contradictions: string[] = []
    const judged = suite.checks.filter((c) => (c.status === 'pass' || c.status === 'fail') && c.spec?.quote)
    for (const [i, a] of judged.entries()) {
      for (const b of judged.slice(i + 1)) {
        if (a.status === b.status || !sentencesOf(a.spec!.quote!).some((sentence) => sentencesOf(b.spec!.quote!).includes(sentence))) continue
        const shared = answersOf(a).filter((answer) => answersOf(b).includes(answer))
        if (shared.length) contradictions.push(`${a.id} ${a.status} vs ${b.id} ${b.status} on ${shared[0]}`)
      }
    }
    expect(contradictions).toEqual([])
  })

  it('fails only under a MUST, MUST NOT or the schema, and warns only under a SHOULD (or the bridge’s own rule)', () => {
    const fails = suite.checks.filter((c) => c.status === 'fail')
    expect(fails.filter((c) => !['MUST', 'MUST NOT', 'SCHEMA'].includes(String(c.spec?.keyword))).map((c) => c.id)).toEqual([])
    const warns = suite.checks.filter((c) => c.status === 'warn' && c.spec)
    expect(warns.filter((c) => !['SHOULD', 'SHOULD NOT', 'BRIDGE', 'MUST', 'MUST NOT', 'SCHEMA'].includes(String(c.spec?.keyword))).map((c) => c.id)).toEqual([])
  })

  it('fails the tasks checks whose sentences the canned answers break, each once', () => {
    const status = Object.fromEntries(suite.checks.filter((c) => c.id.startsWith('tasks/')).map((c) => [c.id, c.status]))
    expect(status).toMatchObject({
      // One canned answer per method: the second task the kit creates gets the first one's id,
      // which "Task IDs MUST be unique" forbids.
      'tasks/create': 'fail',
      'tasks/get': 'fail',
      'tasks/list': 'fail',
      'tasks/list-cursor': 'fail',
      'tasks/cancel-terminal': 'fail',
      'tasks/unknown-id': 'fail',
      'tasks/result': 'fail',
    })
  })
})
