/**
 * "The server MUST NOT send notification types the client has not explicitly requested"
 * (2026-07-28 subscriptions): the acknowledgement's filter is what the stream will carry, so one
 * that agrees to a type the request did not ask for fails modern/subscriptions-listen. Scripted
 * server over real HTTP on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest'
import { runServerSuite } from '../src/server/run.ts'
import { startModernServer } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'

const ID = 'modern/subscriptions-listen'

describe('modern/subscriptions-listen: the acknowledged filter', () => {
  it.each([
    [undefined, 'pass', /agreed to "toolsListChanged"$/],
    ['listen-agrees-unasked', 'fail', /^the acknowledgement agrees to "promptsListChanged", which the request did not ask for \(it asked for "toolsListChanged"\)$/],
  ])('scripted server %s: %s', async (breach, status, message) => {
    const server = await startModernServer(breach ? { breach } : {})
    try {
      const suite = await runServerSuite({ kind: 'http', url: server.url, headers: {} }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000 })
      expect(find(suite, ID)).toMatchObject({ status, message: expect.stringMatching(message) })
      if (breach) {
        expect(find(suite, ID).spec).toMatchObject({ keyword: 'MUST NOT', quote: 'The server MUST NOT send notification types the client has not explicitly requested.' })
        expect(flagged(suite)).toEqual([expect.stringMatching(/^modern\/subscriptions-listen: /)])
      }
    } finally {
      await server.close()
    }
  }, 60_000)
})
