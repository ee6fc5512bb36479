import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { groupsSupported, spawnGroup, stopGroup, type StopOptions } from '../src/index.ts'
import { processTable } from '../../test/support/process-tree.ts'

/** Long enough for a server that heeds a step to exit on a busy machine; each ignored step costs it once. */
const GRACE_MS = 1_000

/** A node server that says `ready` once its handlers are set, plus a `sleep` grandchild in its group. */
function server(handlers: string) {
  const script = `${handlers}; require('node:child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); process.stdin.resume(); setInterval(() => {}, 1000); console.log('ready')`
  const group = spawnGroup(process.execPath, ['-e', script], { env: process.env, graceMs: 100 })
  return { group, exited: group.exited, ready: once(group.child.stdout!, 'data') }
}

async function stop(handlers: string, options: Partial<StopOptions> = {}) {
  const { group, exited, ready } = server(handlers)
  await ready
  let steps = 0
  const escalation = await stopGroup(group.child, { exited, graceMs: GRACE_MS, killedWaitMs: 10_000, beforeStep: () => steps++, ...options })
  return { escalation, steps, pid: group.pid! }
}

const groupLeft = (pid: number) => processTable().filter((entry) => entry.pgid === pid && !entry.zombie)

describe.runIf(groupsSupported)('stopGroup', () => {
  it('a server that exits on EOF gets no signal', async () => {
    const { escalation, steps } = await stop(`process.stdin.on('end', () => process.exit(0))`)
    expect(escalation).toBe('none')
    expect(steps).toBe(1)
  })

  it('a server that ignores EOF gets SIGTERM, and so does the rest of its group', async () => {
    const { escalation, steps, pid } = await stop('')
    expect(escalation).toBe('SIGTERM')
    expect(steps).toBe(2)
    await expect.poll(() => groupLeft(pid)).toEqual([])
  })

  it('a server that ignores SIGTERM too gets SIGKILL', async () => {
    const { escalation, steps, pid } = await stop(`process.on('SIGTERM', () => {})`)
    expect(escalation).toBe('SIGKILL')
    expect(steps).toBe(3)
    await expect.poll(() => groupLeft(pid)).toEqual([])
  })

  it('closeInput: false leaves stdin open, and a signal of its own reaches the server alone', async () => {
    const sent: string[] = []
    const { group, exited, ready } = server(`process.stdin.on('end', () => process.exit(0))`)
    await ready
    const escalation = await stopGroup(group.child, { exited, graceMs: GRACE_MS, closeInput: false, signal: (name) => (sent.push(name), group.child.kill(name)) })
    expect(escalation).toBe('SIGTERM')
    expect(sent).toEqual(['SIGTERM'])
    // The grandchild was not signalled: its group outlives the server.
    expect(groupLeft(group.pid!)).not.toEqual([])
    process.kill(-group.pid!, 'SIGKILL')
    await expect.poll(() => groupLeft(group.pid!)).toEqual([])
  })
})
