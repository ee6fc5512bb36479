import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { descendants, processTable, survivorsAfter, type ProcessEntry } from '../../test/support/process-tree.ts'
import { OWNER_ENDINGS, trackedOwners } from '../../test/support/owner-endings.ts'

/**
 * mcp-fixture ended by every signal: SIGINT and SIGTERM end it with 130 and 143, and neither it
 * nor what it started (its grandchild, when the behaviour asks for one) is left within one second,
 * SIGKILL included. Processes are found by parentage from the pid this test started.
 */
const bin = fileURLToPath(new URL('../bin/mcp-fixture.js', import.meta.url))
const AFTER_MS = 1_000
const behaviour = JSON.stringify({ tools: [{ name: 'echo' }], stdio: { grandchild: true } })

const running = trackedOwners()
const endings = OWNER_ENDINGS

describe.each(['stdio', 'http'] as const)('mcp-fixture --transport %s', (transport) => {
  it.each(endings)('ended by $name', async (ending) => {
    // Its own process group (Ctrl-C reaches a group); stdin held open, as a client would.
    const child = spawn(process.execPath, [bin, '--json', behaviour, '--transport', transport], { stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    running.add(child)
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
    // stdio: ready once the grandchild is announced; HTTP (which has no stdio faults): at its readiness line.
    let output = ''
    await new Promise<void>((resolve) => {
      const take = (chunk: Buffer) => {
        output += chunk.toString()
        if (/grandchild \d+|"ready":true/.test(output)) resolve()
      }
      child.stdout!.on('data', take)
      child.stderr!.on('data', take)
    })
    const tree: ProcessEntry[] = [...processTable().filter((entry) => entry.pid === child.pid), ...descendants(child.pid!)]
    expect(tree).toHaveLength(transport === 'stdio' ? 2 : 1)
    ending.end(child.pid!)
    expect(await exited).toEqual(ending.exit)
    expect(await survivorsAfter(tree, AFTER_MS)).toEqual([])
  })
})
