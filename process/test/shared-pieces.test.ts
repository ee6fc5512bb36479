import { describe, expect, it } from 'vitest'
import { invalidRequest, isWorthSaying, limitStream, readBoundedText, RepeatCounter, safeCause, Serial } from '../src/index.ts'

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
      controller.close()
    },
  })

describe('Serial', () => {
  it('runs steps one at a time in order, and a failed step fails its caller alone', async () => {
    const serial = new Serial()
    const order: string[] = []
    let finishFirst = () => {}
    const first = serial.run(() => new Promise<void>((resolve) => (finishFirst = resolve)).then(() => order.push('first')))
    const failed = serial.run(() => {
      order.push('failed')
      throw new Error('step failed')
    })
    const third = serial.run(() => order.push('third'))
    await Promise.resolve()
    expect(order).toEqual([])
    finishFirst()
    await expect(failed).rejects.toThrow('step failed')
    await Promise.all([first, third, serial.idle()])
    expect(order).toEqual(['first', 'failed', 'third'])
  })
})

describe('RepeatCounter and isWorthSaying', () => {
  it('counts per kind, and says the 1st, 10th and 100th time only', () => {
    const repeats = new RepeatCounter()
    const said = Array.from({ length: 150 }, () => repeats.count('a')).filter(isWorthSaying)
    expect(said).toEqual([1, 10, 100])
    expect(repeats.count('b')).toBe(1)
  })
})

describe('readBoundedText and limitStream', () => {
  it('reads a body whole under the bound, and stops past it with the crossing chunk kept', async () => {
    expect(await readBoundedText(streamOf('ab', 'cd'), 10)).toEqual({ text: 'abcd', abandoned: false })
    expect(await readBoundedText(streamOf('ab', 'cd', 'ef'), 3)).toEqual({ text: 'abcd', abandoned: true })
  })

  it('keeps a character split across chunks, and shows a body that ends inside one', async () => {
    const bytes = (...values: number[]) => new Uint8Array(values)
    const body = (...chunks: Uint8Array[]) => new ReadableStream<Uint8Array>({ start: (c) => { chunks.forEach((chunk) => c.enqueue(chunk)); c.close() } })
    // "é" is C3 A9: split, it is still one character; cut after C3, the reader says so (U+FFFD) instead of dropping it.
    expect((await readBoundedText(body(bytes(0x61, 0xc3), bytes(0xa9)), 10)).text).toBe('aé')
    expect((await readBoundedText(body(bytes(0x61, 0xc3)), 10)).text).toBe('a\uFFFD')
  })

  it('passes a stream through under the bound, errors past it, and releases once either way', async () => {
    let releases = 0
    const whole = await new Response(limitStream(streamOf('ab', 'cd'), 4, () => new Error('too large'), () => releases++)).text()
    expect(whole).toBe('abcd')
    expect(releases).toBe(1)
    const over = new Response(limitStream(streamOf('ab', 'cd', 'e'), 4, (read) => new Error(`too large at ${read}`), () => releases++)).text()
    await expect(over).rejects.toThrow('too large at 5')
    expect(releases).toBe(2)
  })
})

describe('invalidRequest and safeCause', () => {
  it('answers an unusable id under null, and names what is wrong', () => {
    expect(invalidRequest({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toEqual({ id: null, problem: 'its id (1.5) is not a string or an integer within 2^53' })
    expect(invalidRequest({ jsonrpc: '2.0', method: 'notifications/x' })).toBeUndefined()
  })

  it('keeps name, code and status of a cause, with its message redacted and no stack', () => {
    const error = Object.assign(new TypeError('token sk-live-abc'), { code: 'E1', status: 401 })
    const cause = safeCause(error, (text) => text.replace('sk-live-abc', '[REDACTED]'))
    expect(cause).toMatchObject({ name: 'TypeError', message: 'token [REDACTED]', code: 'E1', status: 401 })
    expect(cause.stack).toBe('TypeError: token [REDACTED]')
  })
})
