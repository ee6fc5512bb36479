/**
 * Judging a server loads none of the plugin's running parts: its connection, session and
 * transports, or the reference host. Server mode imports only the plugin's pure rules (naming,
 * tool planning, the configuration schema), so a run starts light and a fault in the plugin's
 * runtime cannot colour a server's verdicts. The built bin runs in a fresh Node whose module
 * hooks list every ES module it loads, for a whole run against server-everything over stdio.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')
const HOOKS = resolve(import.meta.dirname, 'support/loaded-modules.mjs')
const REPO = resolve(import.meta.dirname, '../..')
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')

/** Plugin modules that run a connection or a host; a file of the @mcp-bridge/host package is one too. */
const RUNTIME = /^(plugin\/(dist|src)\/(index|connection|session|[\w-]*transport[\w-]*|tool-set)\.(js|ts)|plugin\/(dist|src)\/host\/|host\/(dist|src)\/)/

describe('server mode', () => {
  let dir: string
  let loaded: string[]
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kit-server-modules-'))
    const file = join(dir, 'modules.txt')
    const args = ['--import', HOOKS, BIN, 'server', '--report-dir', join(dir, 'reports'), '--', process.execPath, EVERYTHING, 'stdio']
    const code = await new Promise<number>((done) => {
      execFile(process.execPath, args, { cwd: dir, env: { ...process.env, LOADED_MODULES_FILE: file }, timeout: 110_000 }, (error) => {
        done(error ? (typeof error.code === 'number' ? error.code : -1) : 0)
      })
    })
    expect(code, 'the server run itself').toBe(0)
    loaded = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url))
      .filter((path) => path.startsWith(`${REPO}/`) && !path.includes('/node_modules/'))
      .map((path) => path.slice(REPO.length + 1))
  }, 120_000)
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('loads the pure rules it judges by, and none of the plugin runtime or the host', () => {
    // The hooks saw the kit, and the plugin's rules: the list is the real one, not an empty file.
    expect(loaded).toContain('conformance/dist/server/run.js')
    expect(loaded).toContain('plugin/dist/naming.js')
    expect(loaded.filter((path) => RUNTIME.test(path))).toEqual([])
  })
})
