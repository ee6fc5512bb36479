import { describe, expect, it } from 'vitest'
import { isAlive, startHost } from './support/host.ts'
import { announcedPids, rawServerScript } from './support/raw-server.ts'


const raw = (script: string, extra: Record<string, unknown> = {}) => ({
  transport: 'stdio',
  serverName: 'raw',
  command: process.execPath,
  args: ['-e', script],
  killGraceMs: 100,
  ...extra,
})

describe('child process hygiene', () => {
  it('kills a child that ignores SIGTERM, and its grandchildren, on dispose', async () => {
    const host = await startHost()
    // Grace enough for the child to hear SIGTERM on a loaded machine, so its line is evidence.
    const fiber = await host.load(raw(rawServerScript({ ignoreSigterm: true, grandchild: true }), { killGraceMs: 500 }))
    await expect.poll(() => announcedPids(host.logs, 'grandchild').length).toBe(1)
    const [pid] = announcedPids(host.logs, 'pid')
    const [grandchild] = announcedPids(host.logs, 'grandchild')
    expect(isAlive(pid!) && isAlive(grandchild!)).toBe(true)
    await fiber.dispose()
    // The line may still be in the pipe when the killed child's exit ends the dispose.
    await expect.poll(() => host.logs.join('\n')).toMatch(/stderr: ignoring SIGTERM/)
    expect(isAlive(pid!)).toBe(false)
    await expect.poll(() => isAlive(grandchild!)).toBe(false)
  })

  it('quotes the last stderr lines when a child dies mid-call, and never replays the call', async () => {
    const host = await startHost()
    await host.load(raw(rawServerScript(), { reconnect: { enabled: false } }))
    const result = await host.tools.execute('mcp__raw__die', {})
    expect(result).toMatchObject({ isError: true, error: { code: 'SERVER_UNAVAILABLE', message: expect.stringContaining('panic: disk on fire') } })
    await expect.poll(() => host.logs.join('\n')).toMatch(/connection lost: .*last stderr lines: .*panic: disk on fire/)
    expect(host.logs.join('\n')).toMatch(/connection lost and reconnect is disabled/)
    // Tools stay registered but fail fast, saying why.
    expect(await host.tools.execute('mcp__raw__ok', {})).toMatchObject({
      isError: true,
      error: { code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/is disconnected: connection lost and reconnect is disabled/) },
    })
  })
})
