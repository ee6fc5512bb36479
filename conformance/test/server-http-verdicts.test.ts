/**
 * HTTP verdicts say only what their sentence says: http/session-id judges the characters of the
 * id, and a ping whose stream was accepted (2xx) but never carried a response is not a breach of
 * "respect the negotiated protocol version".
 */
import { describe, expect, it } from 'vitest'
import { judgeHttp, type HttpObservation, type Probe } from '../src/server/evaluate/http.ts'

const probe = (status: number | undefined, extra: Partial<Probe['response']> = {}): Probe => ({
  request: { method: 'POST', headers: {} },
  response: { status, contentType: 'text/event-stream', sessionId: null, messages: [], ...extra },
})

const observation = (versionHeader: Probe): HttpObservation => ({
  version: '2025-11-25',
  sessionId: 'sess-1',
  posts: [],
  initialized: { ok: true, wire: [], http: { method: 'POST', status: 202 } } as never,
  versionHeader,
  streamEndMs: 1_000,
})

const check = (obs: HttpObservation, id: string) => judgeHttp(obs).find((c) => c.id === id)!

describe('http/session-id', () => {
  it('a visible-ASCII id passes even when the request carrying it was refused (400 for the version header)', () => {
    const c = check(observation(probe(400, { contentType: 'application/json' })), 'http/session-id')
    expect(c.status).toBe('pass')
    expect(c.message).not.toMatch(/served/)
  })

  it('an id with a space still fails', () => {
    const obs = { ...observation(probe(200)), sessionId: 'sess 1' }
    expect(check(obs, 'http/session-id').status).toBe('fail')
  })
})

describe('http/protocol-version-header', () => {
  it('HTTP 200 whose stream never carried the response is not a breach of the version sentence', () => {
    const c = check(observation(probe(200, { timedOut: true })), 'http/protocol-version-header')
    expect(c.status).toBe('skip')
    expect(c.message).toContain('HTTP 200, then no JSON-RPC response before the timeout')
  })

  it('HTTP 400 for the negotiated version still fails', () => {
    expect(check(observation(probe(400)), 'http/protocol-version-header').status).toBe('fail')
  })
})
