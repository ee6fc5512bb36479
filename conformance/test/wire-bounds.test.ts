import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { exchange } from '../src/server/wire/http-post.ts'
import { StdioWire } from '../src/server/wire/stdio.ts'

/** A server that answers every POST with `bytes` of body, written only as fast as it is read. */
async function flooding(type: string, bytes: number) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': type })
    let left = bytes
    const chunk = Buffer.alloc(64 * 1024, 'x')
    const write = () => {
      while (left > 0) {
        left -= chunk.length
        if (!res.write(chunk)) return void res.once('drain', write)
      }
      res.end()
    }
    res.once('close', () => (left = 0))
    write()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  afterAll(() => new Promise((resolve) => server.close(resolve)))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
}

describe('the kit reads what a server sends within bounds', () => {
  it.each([
    ['application/json', 'the body'],
    ['text/event-stream', 'the stream'],
  ])('a 200 MiB %s answer is abandoned, and said so', async (type, what) => {
    const url = await flooding(type, 200 * 1024 * 1024)
    const info = await exchange(url, { headers: {}, body: '{}', timeoutMs: 20_000 })
    expect(info.status).toBe(200)
    expect(info.messages).toEqual([])
    expect(info.text).toMatch(new RegExp(`${what} was longer than 17825792 bytes and was not read further`))
  })

  it('stderr is decoded once, so a character split across writes survives', async () => {
    // "ü" is 0xC3 0xBC: the server writes it in two halves, 50 ms apart, then exits.
    const script = "process.stderr.write(Buffer.from([0xc3])); setTimeout(() => { process.stderr.write(Buffer.from([0xbc, 0x0a])); process.exit(1) }, 50)"
    const wire = await StdioWire.start({ command: process.execPath, args: ['-e', script] })
    if ('error' in wire) throw new Error(wire.error)
    await wire.shutdown(2_000)
    expect(wire.stderrTail()).toBe('ü\n')
  })
})
