import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { descendants, survivorsAfter, type ProcessEntry } from '../../test/support/process-tree.ts'

/**
 * spawnGroup's `takeDescendants`: a server's descendant that left its group (setsid) ends with the
 * owner too, however the owner ends: the exit hook (process.exit), a handled SIGTERM, or SIGKILL
 * (the watchdog, which lists the descendants before its SIGTERM). Without the option such a
 * process has left on purpose and stays (the bridge's default).
 */
const script = fileURLToPath(new URL('./support/escapee-owner.mjs', import.meta.url))
/** The watchdog's grace in support/escapee-owner.mjs, then room for scheduling on shared cores. */
const BOUND_MS = 200 + 1_000

const running = new Set<ChildProcess>()
const leftovers: ProcessEntry[] = []
afterEach(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  running.clear()
  for (const entry of leftovers.splice(0)) {
    try {
      process.kill(entry.pid, 'SIGKILL')
    } catch {
      // Gone.
    }
  }
})

async function ownerWithEscapee(env: Record<string, string>) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] })
  running.add(child)
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  await new Promise((resolve) => child.stdout!.once('data', resolve))
  // The grandchild leads a session of its own, below the server.
  const escaped = () => descendants(child.pid!).filter((entry) => entry.name === 'node' && entry.pgid === entry.pid)
  await expect.poll(() => escaped().length).toBe(1)
  return { child, exited, tree: descendants(child.pid!), escapee: escaped()[0]! }
}

describe('spawnGroup with takeDescendants', () => {
  it.each<{ name: string; env: Record<string, string>; end: (child: ChildProcess) => unknown }>([
    { name: 'SIGKILL (the watchdog)', env: {}, end: (child: ChildProcess) => child.kill('SIGKILL') },
    { name: 'process.exit (the exit hook)', env: { OWNER_END: 'exit' }, end: (child: ChildProcess) => child.stdin!.end() },
    { name: 'a handled SIGTERM', env: { OWNER_SIGNALS: '1' }, end: (child: ChildProcess) => child.kill('SIGTERM') },
  ])('the owner ended by $name takes the setsid grandchild too', async ({ env, end }) => {
    const { child, exited, tree, escapee } = await ownerWithEscapee({ OWNER_TAKE: '1', ...env })
    leftovers.push(escapee)
    end(child)
    await exited
    expect(await survivorsAfter(tree, BOUND_MS)).toEqual([])
  })

  it('without it, a SIGKILLed owner leaves the grandchild that left on purpose (and only it)', async () => {
    const { child, exited, tree, escapee } = await ownerWithEscapee({})
    leftovers.push(escapee)
    child.kill('SIGKILL')
    await exited
    expect((await survivorsAfter(tree, BOUND_MS)).map((entry) => entry.pid)).toEqual([escapee.pid])
  })
})
