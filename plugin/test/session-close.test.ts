import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { redactSecrets } from '@mcp-bridge/process'
import { Session, type SessionHooks } from '../src/session.ts'
import { afterTest } from './support/cleanup.ts'
import { isAlive } from './support/host.ts'

/**
 * Session.close() waits for the stdio transport's whole escalation, however long killGraceMs makes
 * it: EOF, killGraceMs, SIGTERM, killGraceMs, SIGKILL. A close bounded by a fixed time instead
 * (or by the grace once) would return while a server that ignores both is still running.
 */
const STUBBORN = `
  process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\\n'))
  setInterval(() => {}, 1000)
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
  require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line)
    if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: {}, serverInfo: { name: 'stubborn', version: '1' } } })
    // A legacy server that answers the era probe, so the handshake does not wait out a silent one.
    else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'Method not found' } })
  })
  process.stderr.write('ready\\n')`

const hooks: SessionHooks = { onToolListChanged: () => {}, onLost: () => {}, onStderrLine: () => {}, onNotice: () => {}, onSecretLookingEnv: () => {} }

describe('Session.close on stdio', () => {
  it('returns only once a server that ignores EOF and SIGTERM is gone, with killGraceMs of 4 s (twice the grace, past a fixed 6 s)', async () => {
    const config = parseConfig({ transport: 'stdio', serverName: 'stubborn', command: process.execPath, args: ['-e', STUBBORN], killGraceMs: 4_000 })
    const session = afterTest(await Session.open(config, hooks, AbortSignal.timeout(10_000), redactSecrets), (s) => s.close())
    const pid = session.pid!
    expect(isAlive(pid)).toBe(true)
    const started = performance.now()
    await session.close()
    // Checked at once, not polled: close() promised the process is gone.
    expect(isAlive(pid)).toBe(false)
    // EOF and SIGTERM were both given their grace before SIGKILL.
    expect(performance.now() - started).toBeGreaterThanOrEqual(7_900)
  }, 30_000)
})
