import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { isAlive, startHost, stateOf, type TestHost } from './support/host.ts'
import { ANSWER_ERA_PROBE } from './support/raw-server.ts'

let host: TestHost | undefined
let silent: HttpServer | undefined
afterEach(async () => {
  await host?.dispose()
  silent?.closeAllConnections()
  silent?.close()
  host = silent = undefined
})

describe('connectTimeoutMs bounds initialize and discovery', () => {
  it('activates with no tools when an HTTP server never answers initialize, and disposes at once', async () => {
    silent = createServer(() => {}) // accepts every request and never answers
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`
    host = await startHost()
    const fiber = await host.load({ transport: 'streamable-http', serverName: 'mute', url, connectTimeoutMs: 300, reconnect: { enabled: false } })
    expect(host.tools.list()).toEqual([])
    expect(host.logs.join('\n')).toMatch(/connection attempt failed: initialize failed/)
    expect(stateOf(fiber)?.kind).toBe('stopped')
    await fiber.dispose()
  })

  it('stops a stdio server that never answers tools/list, and its child is gone', async () => {
    // Answers initialize, then ignores everything: discovery must not block activation.
    const script = `
      const rl = require('readline').createInterface({ input: process.stdin })
      rl.on('line', (line) => {
        const m = JSON.parse(line)
        ${ANSWER_ERA_PROBE}
        if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'mute', version: '1' } } }) + '\\n')
      })
      process.stderr.write('pid ' + process.pid + '\\n')`
    host = await startHost()
    const fiber = await host.load({
      transport: 'stdio',
      serverName: 'mute',
      command: process.execPath,
      args: ['-e', script],
      // One bound for initialize and discovery: it must outlast the child's start and initialize
      // (at 400 ms, a loaded machine with four test files side by side started the child too late
      // and the attempt failed at initialize), so that only the unanswered tools/list can end it.
      connectTimeoutMs: 15_000,
      reconnect: { enabled: false },
    })
    expect(host.tools.list()).toEqual([])
    const text = host.logs.join('\n')
    expect(text).toMatch(/connection attempt failed: tools\/list failed/)
    const pid = Number(/stderr: pid (\d+)/.exec(text)?.[1])
    expect(pid).toBeGreaterThan(0)
    await expect.poll(() => isAlive(pid)).toBe(false)
    await fiber.dispose()
  })
})

