import { describe, expect, it } from 'vitest'
import { BoundedQueue, concatBytes, EventSizeScanner, sseField } from '../src/index.ts'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('sseField', () => {
  it('reads a comment as nothing, and a field with or without its one leading space', () => {
    expect(sseField(': keep-alive')).toBeUndefined()
    expect(sseField('data: {"a":1}')).toEqual({ field: 'data', value: '{"a":1}' })
    expect(sseField('data:  two spaces')).toEqual({ field: 'data', value: ' two spaces' })
    expect(sseField('event:message')).toEqual({ field: 'event', value: 'message' })
    expect(sseField('data')).toEqual({ field: 'data', value: '' })
  })
})

describe('EventSizeScanner', () => {
  it('ends an event at an empty line, whichever of CRLF, LF or CR ends the lines', () => {
    for (const end of ['\r\n', '\n', '\r']) {
      const scanner = new EventSizeScanner()
      expect(scanner.push(bytes(`data: abc${end}`))).toEqual({ largest: 9, ended: false })
      expect(scanner.push(bytes(end))).toEqual({ largest: 9, ended: true })
      expect(scanner.push(bytes('data: x'))).toEqual({ largest: 7, ended: false })
    }
  })

  it('takes a CRLF split across chunks for one line end, not two', () => {
    const scanner = new EventSizeScanner()
    expect(scanner.push(bytes('data: a\r'))).toEqual({ largest: 7, ended: false })
    expect(scanner.push(bytes('\ndata: b'))).toEqual({ largest: 14, ended: false })
    expect(scanner.largestSeen).toBe(14)
  })
})

describe('concatBytes', () => {
  it('joins chunks in order, and hands a single chunk back uncopied', () => {
    const one = bytes('ab')
    expect(concatBytes([one], 2)).toBe(one)
    expect(new TextDecoder().decode(concatBytes([one, bytes('cd')], 4))).toBe('abcd')
  })
})

describe('BoundedQueue', () => {
  it('runs at most `concurrency` tasks, queues up to `capacity` in order, and refuses the next', async () => {
    const queue = new BoundedQueue(1, 1)
    const order: string[] = []
    let finishFirst = () => {}
    const first = queue.run(() => new Promise<void>((resolve) => (finishFirst = resolve)).then(() => order.push('first')), () => new Error('full'))
    const second = queue.run(async () => order.push('second'), () => new Error('full'))
    await expect(queue.run(async () => order.push('third'), () => new Error('full'))).rejects.toThrow('full')
    await Promise.resolve()
    expect(order).toEqual([])
    finishFirst()
    await Promise.all([first, second])
    expect(order).toEqual(['first', 'second'])
  })
})
