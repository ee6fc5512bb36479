import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { watchParent } from '../src/index.ts'
import { descendants, isRunning, survivorsAfter } from '../../test/support/process-tree.ts'

const OWNER = fileURLToPath(new URL('./support/owner.mjs', import.meta.url))
/** The owner's watch interval and its handleSignals grace (support/owner.mjs reads both). */
const WATCH_MS = 100
const GRACE_MS = 1_000
/**
 * The parent's death is noticed within one interval; the graceful stop then takes at most the
 * grace before the exit hook kills the server's group. The rest is room for scheduling on shared cores.
 */
const BOUND_MS = WATCH_MS + GRACE_MS + 2_000

const started: ChildProcess[] = []
afterEach(() => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // gone
    }
  }
  started.length = 0
})

/**
 * A launcher like `npm exec`: a plain parent that starts support/owner.mjs (its stdio inherited, so
 * the owner writes straight to this test) and never passes a signal on. Its own process group, so
 * a test that fails kills all of it.
 */
function launch(env: Record<string, string>, { viaShell = false } = {}) {
  // viaShell: as `npm exec` does, through `sh -c` (a second command keeps the shell from exec'ing node).
  const start = viaShell
    ? `['/bin/sh', ['-c', ${JSON.stringify(`"${process.execPath}" "${OWNER}"; exit $?`)}]]`
    : `[process.execPath, [${JSON.stringify(OWNER)}]]`
  const script = `require('node:child_process').spawn(...${start}, { stdio: 'inherit' }); setInterval(() => {}, 60000)`
  const launcher = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, OWNER_SIGNALS: '1', OWNER_STOP: 'ok', OWNER_GRACE_MS: String(GRACE_MS), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  })
  started.push(launcher)
  let stdout = ''
  const ready = new Promise<{ server: number; tempDir: string; owner: number }>((resolve, reject) => {
    launcher.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n').find((text) => text.startsWith('{'))
      if (line) resolve(JSON.parse(line) as { server: number; tempDir: string; owner: number })
    })
    launcher.once('exit', () => reject(new Error('the launcher exited before the owner was ready')))
  })
  return { launcher, ready, stdout: () => stdout }
}

describe('watchParent', () => {
  it('an owner whose launcher is SIGKILLed stops as on SIGTERM: graceful stops, servers killed, temp dir removed', async () => {
    const { launcher, ready, stdout } = launch({ OWNER_WATCH_PARENT_MS: String(WATCH_MS) })
    const { owner, server, tempDir } = await ready
    const tree = descendants(launcher.pid!)
    expect(tree.map((entry) => entry.pid)).toEqual(expect.arrayContaining([owner, server]))
    launcher.kill('SIGKILL')

    expect(await survivorsAfter(tree, BOUND_MS)).toEqual([])
    // The registered stop ran (the SIGTERM path), not merely the exit hook or a watchdog. Its line
    // may still be in the pipe when the last process is gone: read it as it arrives.
    await expect.poll(stdout).toContain('stopped\n')
    expect(existsSync(tempDir)).toBe(false)
  })

  it('looks through a launcher\'s `sh -c`: a SIGKILLed launcher leaves the shell, and the owner still stops', async () => {
    const { launcher, ready, stdout } = launch({ OWNER_WATCH_PARENT_MS: String(WATCH_MS) }, { viaShell: true })
    const { owner, server } = await ready
    const tree = descendants(launcher.pid!)
    expect(tree.find((entry) => entry.pid === owner)?.ppid, 'the owner is the shell\'s child').not.toBe(launcher.pid)
    expect(tree.map((entry) => entry.pid)).toContain(server)
    launcher.kill('SIGKILL')

    expect(await survivorsAfter(tree, BOUND_MS)).toEqual([])
    await expect.poll(stdout).toContain('stopped\n')
  })

  it('does nothing while the parent lives', async () => {
    const { launcher, ready, stdout } = launch({ OWNER_WATCH_PARENT_MS: String(WATCH_MS) })
    const { owner, server } = await ready
    // Ten intervals, each of which would have noticed a change.
    await new Promise((resolve) => setTimeout(resolve, WATCH_MS * 10))
    expect(isRunning(owner)).toBe(true)
    expect(isRunning(server)).toBe(true)
    expect(stdout()).not.toContain('stopped')
    launcher.kill('SIGKILL')
  })

  it('a bad interval is refused with one line naming it', () => {
    expect(() => watchParent(() => {}, { intervalMs: 0 })).toThrow('watchParent: intervalMs must be a positive integer (got 0)')
  })

  it('its timer keeps no process alive (a CLI that is done exits while its parent still runs)', async () => {
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url))
    const child = spawn(process.execPath, ['--input-type=module', '-e', `import { watchParent } from ${JSON.stringify(dist)}; watchParent(() => process.exit(3), { intervalMs: 60000 })`], { stdio: 'ignore', detached: true })
    started.push(child)
    const code = await new Promise((resolve) => child.once('exit', resolve))
    expect(code).toBe(0)
  })
})
