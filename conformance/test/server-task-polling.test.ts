/**
 * tasks/get-polling over Streamable HTTP: the correct mcp-fixture task server answering tasks/get
 * with one JSON body passes; the same server answering it with the SDK's event stream (what an
 * SDK server does for every request) is warned under the SHOULD NOT it breaks, and nothing else
 * of the tasks area changes.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startHttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'

const CORRECT = join(import.meta.dirname, 'fixtures/task-servers/correct.json')
const CALLS = [
  { name: 'research', arguments: {} },
  { name: 'plain', arguments: {} },
]

async function runOverHttp(jsonAnswers: string[]): Promise<SuiteResult> {
  const behaviour = { ...JSON.parse(await readFile(CORRECT, 'utf8')), http: { jsonAnswers } }
  const fixture = await startHttpFixture(behaviour)
  try {
    return await runServerSuite({ kind: 'http', url: fixture.url, headers: {} }, { calls: CALLS })
  } finally {
    await fixture.close()
  }
}

const check = (suite: SuiteResult, id: string) => suite.checks.find((c) => c.id === id)
const flaggedTasks = (suite: SuiteResult) => suite.checks.filter((c) => c.id.startsWith('tasks/') && ['fail', 'warn', 'error'].includes(c.status)).map((c) => c.id)

describe('tasks/get-polling over Streamable HTTP', () => {
  it('passes a server that answers tasks/get as JSON', async () => {
    const suite = await runOverHttp(['tasks/get'])
    expect(check(suite, 'tasks/get-polling')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^\d+ tasks\/get answers? with Content-Type "application\/json", none upgraded to an SSE stream$/) })
    expect(flaggedTasks(suite)).toEqual([])
  }, 60_000)

  it('warns a server that answers tasks/get with an event stream, quoting the SHOULD NOT', async () => {
    const suite = await runOverHttp([])
    const verdict = check(suite, 'tasks/get-polling')
    expect(verdict).toMatchObject({ status: 'warn', message: expect.stringMatching(/^\d+ of \d+ tasks\/get answers? came with Content-Type "text\/event-stream.*: an SSE stream for a client that polls$/) })
    expect(verdict?.spec?.quote).toContain('servers SHOULD NOT upgrade to an SSE stream in response to a tasks/get request')
    expect(flaggedTasks(suite)).toEqual(['tasks/get-polling'])
  }, 60_000)
})
