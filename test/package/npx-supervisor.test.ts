/**
 * A supervisor that stops `npx mcp-bridge watch` (the packed bin, in a fresh project): SIGTERM ends
 * npm and its `sh -c` without reaching the host, which PID 1 adopts; SIGKILL ends npm alone, leaving
 * the shell as the host's parent. Either way the host must notice (watchParent in
 * @mcp-bridge/process) and stop as on SIGTERM, taking its stdio server with it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PARENT_POLL_MS, DEFAULT_SIGNAL_GRACE_MS } from '@mcp-bridge/process'
import { descendants, survivorsAfter } from '../support/process-tree.ts'
import { killGroup } from '../support/processes.ts'
import { packedProject, type PackedProject } from './packed-project.ts'

/**
 * The host notices within one poll; its graceful stop is bounded by the signal grace, after which
 * every server group is killed. The rest is room for scheduling on shared cores.
 */
const BOUND_MS = DEFAULT_PARENT_POLL_MS + DEFAULT_SIGNAL_GRACE_MS + 3_000

let packed: PackedProject | undefined
const launched: ChildProcess[] = []

beforeAll(async () => {
  packed = await packedProject('mcp-bridge-npx-', ['cordis'])
}, 600_000)

afterAll(() => {
  for (const child of launched) killGroup(child.pid)
  packed?.remove()
})

/** `npx mcp-bridge watch` on a one-server cordis.yml, running; with the tree below npx and the host's stderr. */
async function startWatch(name: string) {
  const { project, env } = packed!
  const config = join(project, `${name}.yml`)
  writeFileSync(
    config,
    [
      '- id: fixture',
      "  name: '@mcp-bridge/plugin'",
      '  config:',
      '    serverName: fixture',
      '    transport: stdio',
      '    command: node',
      '    args: [!path node_modules/@mcp-bridge/fixtures-server/bin/mcp-fixture.js, !path node_modules/@mcp-bridge/fixtures-server/examples/results.yaml]',
      '',
    ].join('\n'),
  )
  // Its own process group, so that afterAll can kill whatever a failed test leaves.
  const npx = spawn('npx', ['--no-install', 'mcp-bridge', '--config', config, 'watch'], { cwd: project, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true })
  launched.push(npx)
  const out = { stderr: '' }
  npx.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk))
  // The host inherits npx's stderr: the stream ends when the host (the last holder) is gone.
  const stderrClosed = new Promise((resolve) => npx.stderr!.once('close', resolve))
  await expect.poll(() => out.stderr, { timeout: 120_000 }).toContain('watching')
  expect(out.stderr).toContain('loaded')
  // npm exec, sh -c, the host, the fixture server (the host's child, leading its own group) and the watchdogs.
  const tree = descendants(npx.pid!)
  const server = tree.find((entry) => entry.pgid === entry.pid && entry.name === 'node')
  expect(server, `the fixture server among ${JSON.stringify(tree)}`).toBeDefined()
  expect(tree.find((entry) => entry.pid === server!.ppid)?.name, 'the host').toBe('node')
  return { npx, tree, out, stderrClosed }
}

describe('npx mcp-bridge watch under a supervisor', () => {
  it.each(['SIGTERM', 'SIGKILL'] as const)('%s to npx: the host and its stdio server end within one poll and the signal grace', async (signal) => {
    const { npx, tree, out, stderrClosed } = await startWatch(signal)
    const killed = performance.now()
    npx.kill(signal)
    expect(await survivorsAfter(tree, BOUND_MS), out.stderr).toEqual([])
    console.log(`npx ${signal}ed: host and server gone after ${Math.round(performance.now() - killed)} ms (bound ${BOUND_MS} ms)`)
    await stderrClosed
    // The SIGTERM path ran (the servers were disposed), not merely a kill.
    expect(out.stderr).toContain('stopping every server')
    expect(out.stderr).toContain('disposing every server')
  })
})
