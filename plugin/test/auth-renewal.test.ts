import { InvalidClientError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { describe, expect, it } from 'vitest'
import { TokenRenewal, type Grant } from '../src/auth-renewal.ts'

/** A renewal over a scripted grant: each grant issues `tok-N`, or fails as `outcome` says. */
function renewal(outcome: (n: number, signal: AbortSignal) => Promise<void> | void = () => {}, timeoutMs = 60_000) {
  let token: string | undefined
  const signals: AbortSignal[] = []
  let grants = 0
  const lifetime = new AbortController()
  const grant: Grant = async (_challenge, signal) => {
    grants += 1
    signals.push(signal)
    await outcome(grants, signal)
    token = `tok-${grants}`
  }
  const subject = new TokenRenewal({ current: () => token, grant, timeoutMs, lifetime: lifetime.signal })
  return { subject, lifetime, signals, grants: () => grants }
}

const never = (_n: number, signal: AbortSignal) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))

describe('TokenRenewal', () => {
  it('runs one grant for all the requests that meet a 401 together, and gives each its token', async () => {
    const { subject, grants } = renewal()
    expect(await subject.renew(undefined, {}, 401)).toBe('tok-1')
    subject.accept('tok-1')
    const tokens = await Promise.all(Array.from({ length: 20 }, () => subject.renew('tok-1', {}, 401)))
    expect(tokens).toEqual(Array(20).fill('tok-2'))
    expect(grants()).toBe(2)
  })

  it('hands a request that carried a replaced token the current one, without a grant', async () => {
    const { subject, grants } = renewal()
    await subject.renew(undefined, {}, 401)
    subject.accept('tok-1')
    await subject.renew('tok-1', {}, 401)
    expect(await subject.renew('tok-1', {}, 401)).toBe('tok-2')
    expect(grants()).toBe(2)
  })

  it('does not replace a token the server never accepted: that is the server refusing fresh tokens', async () => {
    const { subject, grants } = renewal()
    await subject.renew(undefined, {}, 401)
    await expect(subject.renew('tok-1', {}, 401)).rejects.toThrow(/refused a freshly issued token \(HTTP 401 after successful authentication\): check the client registration/)
    expect(grants()).toBe(1)
  })

  it('fails every waiting request with the authorization server\'s refusal, and asks it once per token', async () => {
    const { subject, grants } = renewal((n) => {
      if (n > 1) throw new InvalidClientError('client authentication failed')
    })
    await subject.renew(undefined, {}, 401)
    subject.accept('tok-1')
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => subject.renew('tok-1', {}, 401)))
    expect(outcomes.every((o) => o.status === 'rejected' && /client authentication failed/.test(String(o.reason)))).toBe(true)
    // A request that meets the 401 later gets the same answer without asking again.
    await expect(subject.renew('tok-1', {}, 401)).rejects.toThrow(/client authentication failed/)
    expect(grants()).toBe(2)
  })

  it('asks again after an outage of the authorization server (not a refusal)', async () => {
    const { subject, grants } = renewal((n) => {
      if (n === 2) throw new ServerError('try later')
    })
    await subject.renew(undefined, {}, 401)
    subject.accept('tok-1')
    await expect(subject.renew('tok-1', {}, 401)).rejects.toThrow(/try later/)
    expect(await subject.renew('tok-1', {}, 401)).toBe('tok-3')
    expect(grants()).toBe(3)
  })

  it('ends a grant that outlives timeoutMs, aborting its requests, with a reason naming connectTimeoutMs', async () => {
    const { subject, signals } = renewal(never, 50)
    await expect(subject.renew(undefined, {}, 401)).rejects.toThrow('the authorization server did not complete the token request within connectTimeoutMs (50 ms)')
    expect(signals[0]!.aborted).toBe(true)
  })

  it('ends a grant in flight when the connection closes', async () => {
    const { subject, lifetime, signals } = renewal(never)
    const pending = subject.renew(undefined, {}, 401)
    lifetime.abort()
    await expect(pending).rejects.toThrow('the connection closed while its token was being renewed')
    expect(signals[0]!.aborted).toBe(true)
  })

  it('releases a request that gives up, leaving the renewal to the others', async () => {
    let finish!: () => void
    const { subject } = renewal((n) => (n === 1 ? new Promise<void>((resolve) => (finish = resolve)) : undefined))
    const caller = new AbortController()
    const giving = subject.renew(undefined, {}, 401, caller.signal)
    const staying = subject.renew(undefined, {}, 401)
    caller.abort(new Error('the call was aborted'))
    await expect(giving).rejects.toThrow('the call was aborted')
    finish()
    expect(await staying).toBe('tok-1')
  })
})
