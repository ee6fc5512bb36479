import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { stringify } from 'yaml'
import { afterEach, describe, expect, it } from 'vitest'
import { descendants, survivorsAfter, type ProcessEntry } from '../../test/support/process-tree.ts'
import { tempDir } from './support/cleanup.ts'

/**
 * No server outlives its host, however the host ends. The server ignores EOF and SIGTERM and does
 * not end with its parent, and neither does its grandchild: only the host's own shutdown (or its
 * watchdog, when the host dies without one) can end them. Processes are found by parentage from
 * the host's pid, never by name, and must all be gone within one second after the host is.
 */
const script = fileURLToPath(new URL('./support/owner-host.mjs', import.meta.url))
const AFTER_MS = 1_000
/** The server of support/owner-host.mjs, for the mcp-bridge CLI. */
const stubbornServer = {
  serverName: 'stubborn',
  transport: 'stdio',
  ...fixtureCommand({ tools: [{ name: 'echo' }], stdio: { ignoreEof: true, ignoreSigterm: true, outliveParent: true, grandchild: true } }),
  killGraceMs: 200,
}

interface Ending {
  name: string
  end?: (pid: number) => void
  exit: { code: number | null; signal: NodeJS.Signals | null }
  env?: Record<string, string>
}

/** A test that fails before it ends its owner must not leave it running. */
const running = new Set<ChildProcess>()
afterEach(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  running.clear()
})

const signal = (name: NodeJS.Signals, group = false) => (pid: number) => process.kill(group ? -pid : pid, name)

interface Owner {
  args: string[]
  env?: Record<string, string>
  /** Printed (stdout or stderr) once the server and its grandchild run. */
  ready: RegExp
}

async function runOwner(owner: Owner, ending: Ending): Promise<{ tree: ProcessEntry[]; exit: unknown; output: string }> {
  // Its own process group, so that a test can signal the group the way Ctrl-C does.
  const child = spawn(process.execPath, owner.args, {
    env: { ...process.env, ...owner.env, ...ending.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  })
  running.add(child)
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString()
      if (owner.ready.test(output)) resolve()
    }
    child.stdout!.on('data', take)
    child.stderr!.on('data', take)
    child.once('exit', () => reject(new Error(`the owner exited before it was ready: ${output}`)))
  }).catch(() => {})
  // The server, its grandchild, and the server's watchdog.
  const tree = descendants(child.pid!)
  // The census is taken: an owner that ends by itself may go now.
  child.stdin!.end('go\n')
  ending.end?.(child.pid!)
  return { tree, exit: await exited, output }
}

const runHost = (host: 'createHost' | 'custom', ending: Ending) => runOwner({ args: [script], env: { OWNER_HOST: host }, ready: /^ready$/m }, ending)

describe('createHost() as owner', () => {
  const endings: Ending[] = [
    { name: 'dispose()', env: { OWNER_END: 'dispose' }, exit: { code: 0, signal: null } },
    { name: 'a normal exit (process.exit)', env: { OWNER_END: 'exit' }, exit: { code: 0, signal: null } },
    { name: 'an uncaught exception', env: { OWNER_END: 'throw' }, exit: { code: 1, signal: null } },
    { name: 'SIGTERM', end: signal('SIGTERM'), exit: { code: 143, signal: null } },
    { name: 'SIGINT', end: signal('SIGINT'), exit: { code: 130, signal: null } },
    { name: 'SIGINT to its process group (Ctrl-C)', end: signal('SIGINT', true), exit: { code: 130, signal: null } },
    { name: 'SIGKILL', end: signal('SIGKILL'), exit: { code: null, signal: 'SIGKILL' } },
  ]
  it.each(endings)('ended by $name: zero survivors', async (ending) => {
    const { tree, exit, output } = await runHost('createHost', ending)
    expect(tree).toHaveLength(3)
    expect(exit).toEqual(ending.exit)
    if (ending.env?.OWNER_END === 'dispose') expect(output).toContain('disposed')
    expect(await survivorsAfter(tree, AFTER_MS)).toEqual([])
  })
})

describe('a custom host with no signal handling of its own', () => {
  const endings: Ending[] = [
    { name: 'SIGTERM', end: signal('SIGTERM'), exit: { code: null, signal: 'SIGTERM' } },
    { name: 'SIGINT to its process group (Ctrl-C)', end: signal('SIGINT', true), exit: { code: null, signal: 'SIGINT' } },
    { name: 'SIGKILL', end: signal('SIGKILL'), exit: { code: null, signal: 'SIGKILL' } },
    { name: 'an uncaught exception', env: { OWNER_END: 'throw' }, exit: { code: 1, signal: null } },
  ]
  it.each(endings)('ended by $name: the watchdog leaves zero survivors', async (ending) => {
    const { tree, exit } = await runHost('custom', ending)
    expect(tree).toHaveLength(3)
    expect(exit).toEqual(ending.exit)
    expect(await survivorsAfter(tree, AFTER_MS)).toEqual([])
  })
})

describe('mcp-bridge watch as owner', () => {
  const bin = fileURLToPath(new URL('../../host/bin/mcp-bridge.js', import.meta.url))
  const endings: Ending[] = [
    { name: 'SIGTERM', end: signal('SIGTERM'), exit: { code: 143, signal: null } },
    { name: 'SIGINT', end: signal('SIGINT'), exit: { code: 130, signal: null } },
    { name: 'SIGINT to its process group (Ctrl-C)', end: signal('SIGINT', true), exit: { code: 130, signal: null } },
    { name: 'SIGKILL', end: signal('SIGKILL'), exit: { code: null, signal: 'SIGKILL' } },
  ]
  it.each(endings)('ended by $name: zero survivors', async (ending) => {
    const dir = tempDir('bridge-owner-')
    const file = join(dir, 'cordis.yml')
    writeFileSync(file, stringify([{ id: 'stubborn', name: '@mcp-bridge/plugin', config: stubbornServer }]))
    const { tree, exit, output } = await runOwner({ args: [bin, '--config', file, 'watch'], ready: /watching .* for changes/ }, ending)
    expect(tree, output).toHaveLength(3)
    expect(exit).toEqual(ending.exit)
    expect(await survivorsAfter(tree, AFTER_MS)).toEqual([])
  })
})
