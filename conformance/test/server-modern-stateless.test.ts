/**
 * modern/stateless: a second stdio process whose first request is a list. The scripted stdio
 * server and the v2 SDK's serve it and pass; the scripted server that refuses a list before
 * server/discover on its process fails under the statelessness MUST NOT, and nothing else is
 * flagged. Over HTTP the kit cannot isolate a connection: not testable, never a verdict.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { STATE_BREACHES } from './fixtures/modern-stdio/breaches.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { runModernServer } from './server-helpers.ts'

const SCRIPTED = fileURLToPath(new URL('./fixtures/modern-stdio/index.mjs', import.meta.url))
const V2_STDIO = fileURLToPath(new URL('../../plugin/test/support/v2-server.mjs', import.meta.url))
const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000 }
const CHECK = 'modern/stateless'

function scripted(breach?: string, revision?: ServerRunOptions['revision']): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [SCRIPTED, ...(breach ? [breach] : [])] }, { ...OPTIONS, ...(revision ? { revision } : {}) })
}

describe('modern/stateless', () => {
  it.each([undefined, '2026-07-28'] as const)('the scripted stdio server (revision %s) serves a list as a new process’s first request', async (revision) => {
    const suite = await scripted(undefined, revision)
    expect(find(suite, CHECK)).toMatchObject({ status: 'pass', message: 'tools/list as the first request of a new connection was served' })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('the v2 SDK stdio server passes', async () => {
    const suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [V2_STDIO, 'stdio', 'reject'] }, OPTIONS)
    expect(find(suite, CHECK)).toMatchObject({ status: 'pass' })
  }, 60_000)

  it('a server that needs server/discover first on its process fails under the MUST NOT', async () => {
    expect(STATE_BREACHES).toHaveProperty('discover-first')
    const suite = await scripted('discover-first')
    expect(find(suite, CHECK)).toMatchObject({
      status: 'fail',
      message: 'tools/list as the first request of a new connection got JSON-RPC error -32600 (Send server/discover first), and was served once server/discover had been sent on that connection: the server relied on the earlier request',
      spec: { keyword: 'MUST NOT', quote: expect.stringMatching(/^Servers MUST NOT rely on prior requests over the same connection/) },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${CHECK}: `))])
    expect(exitCodeOf([suite], [])).toBe(1)
  }, 60_000)

  it('over HTTP it is not testable', async () => {
    const suite = await runModernServer(undefined, OPTIONS)
    expect(find(suite, CHECK)).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Not testable: over HTTP the kit’s client pools its connections/) })
  }, 60_000)
})
