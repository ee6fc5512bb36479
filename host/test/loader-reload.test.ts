import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { publicToolName, type ToolDefinition } from '@mcp-bridge/plugin'
import { createFileHost, type FileHost } from '../src/loader/host.ts'
import { pidOf } from '../../plugin/test/support/host.ts'
import type { ReloadResult } from '../src/loader/types.ts'

const require = createRequire(import.meta.url)
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const memoryServer = require.resolve('@modelcontextprotocol/server-memory/dist/index.js')

/**
 * One host, one cordis.yml, edited step by step the way an operator would, against real servers
 * over stdio. The steps share the host on purpose: each one starts from the state the last left.
 */
describe('cordis.yml hot reload against real MCP servers', () => {
  let dir: string
  let file: string
  let host: FileHost
  const logs: string[] = []
  /** Every tools/change snapshot, to prove unrelated tools were never unregistered, even briefly. */
  const snapshots: string[][] = []

  const everything = (extra: Record<string, unknown> = {}) => ({
    serverName: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [everythingServer, 'stdio'],
    ...extra,
  })
  const memory = (extra: Record<string, unknown> = {}) => ({
    serverName: 'memory',
    transport: 'stdio',
    command: process.execPath,
    args: [memoryServer],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    ...extra,
  })
  const entry = (id: string, config: Record<string, unknown>) => ({ id, name: '@mcp-bridge/plugin', config })

  /** Replaces the file the way most editors save: write a sibling, rename it over. */
  async function save(text: string): Promise<ReloadResult> {
    const reloaded = host.loader.nextReload()
    const temp = join(dir, '.cordis.yml.tmp')
    await writeFile(temp, text)
    await rename(temp, file)
    return reloaded
  }
  const saveEntries = (entries: object[]) => save(stringify(entries))

  const names = (prefix: string) => host.tools.list().map((t) => t.name).filter((n) => n.startsWith(prefix))
  const definitions = (prefix: string) => new Map(names(prefix).map((n) => [n, host.tools.get(n) as ToolDefinition]))
  const pid = (id: string) => pidOf(host.loader.fiber(id)!)
  const alive = (p: number | undefined) => {
    try {
      return p !== undefined && process.kill(p, 0)
    } catch {
      return false
    }
  }
  function logsDuring<T>(task: () => Promise<T>): Promise<{ value: T; lines: string }> {
    const mark = logs.length
    return task().then((value) => ({ value, lines: logs.slice(mark).join('\n') }))
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loader-reload-'))
    file = join(dir, 'cordis.yml')
    await writeFile(file, stringify([entry('everything', everything()), entry('memory', memory())]))
    host = await createFileHost({ file, watch: true, debounceMs: 20, logging: { level: 'debug', write: (line) => logs.push(line) } })
    host.ctx.on('tools/change', (current) => void snapshots.push(current))
  })

  afterAll(async () => {
    await host?.dispose()
    await rm(dir, { recursive: true, force: true })
  })

  let memoryTools: Map<string, ToolDefinition>
  let memoryPid: number | undefined
  let everythingNames: string[]

  it('loads both servers: every tool under its mcp__<serverName>__ namespace', () => {
    expect(host.loaded).toMatchObject({ ok: true, added: ['everything', 'memory'], errors: [] })
    everythingNames = names('mcp__everything__')
    memoryTools = definitions('mcp__memory__')
    memoryPid = pid('memory')
    expect(everythingNames).toContain(publicToolName('everything', 'echo'))
    expect([...memoryTools.keys()]).toContain(publicToolName('memory', 'read_graph'))
    expect(alive(memoryPid) && alive(pid('everything'))).toBe(true)
    expect(logs.join('\n')).toMatch(/\[info\] loader: loaded .*cordis\.yml: 2 added, 0 updated, 0 removed, 0 unchanged/)
  })

  it('a changed config field restarts that instance in place, with identical public names', async () => {
    const fiber = host.loader.fiber('everything')
    const memoryFiber = host.loader.fiber('memory')
    const oldPid = pid('everything')
    const echo = host.tools.get(publicToolName('everything', 'echo'))
    snapshots.length = 0

    const { value: result, lines } = await logsDuring(() =>
      saveEntries([entry('everything', everything({ toolCallTimeoutMs: 45_000 })), entry('memory', memory())]),
    )

    expect(result).toMatchObject({ ok: true, added: [], updated: ['everything'], removed: [], unchanged: ['memory'] })
    expect(lines).toMatch(/\[info\] loader: updated "everything" \(changed: toolCallTimeoutMs\)/)
    // Updated in place: the same fiber, a new server process and a new generation of definitions.
    expect(host.loader.fiber('everything')).toBe(fiber)
    expect(pid('everything')).not.toBe(oldPid)
    expect(alive(oldPid)).toBe(false)
    expect(host.tools.get(publicToolName('everything', 'echo'))).not.toBe(echo)
    expect(names('mcp__everything__')).toEqual(everythingNames)
    expect(host.loader.entries().find((e) => e.id === 'everything')?.config).toMatchObject({ toolCallTimeoutMs: 45_000 })
    // The unrelated entry was never touched.
    expect(host.loader.fiber('memory')).toBe(memoryFiber)
    expect(pid('memory')).toBe(memoryPid)
    expect(definitions('mcp__memory__')).toEqual(memoryTools)
    for (const name of memoryTools.keys()) expect(host.tools.get(name)).toBe(memoryTools.get(name))
    expect(snapshots.length).toBeGreaterThan(0)
    for (const snapshot of snapshots) expect(snapshot).toEqual(expect.arrayContaining([...memoryTools.keys()]))
    expect(await host.tools.execute(publicToolName('everything', 'echo'), { message: 'after update' })).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'Echo: after update' }],
    })
  })

  it('a renamed id is a removal plus an addition; the same serverName gives the same names', async () => {
    const fiber = host.loader.fiber('everything')
    snapshots.length = 0
    const { value: result, lines } = await logsDuring(() =>
      saveEntries([entry('main-server', everything({ toolCallTimeoutMs: 45_000 })), entry('memory', memory())]),
    )
    expect(result).toMatchObject({ ok: true, added: ['main-server'], updated: [], removed: ['everything'], unchanged: ['memory'] })
    expect(lines).toMatch(/removed "everything"/)
    expect(lines).toMatch(/added "main-server" \(@mcp-bridge\/plugin\)/)
    expect(host.loader.fiber('everything')).toBeUndefined()
    expect(host.loader.fiber('main-server')).not.toBe(fiber)
    expect(names('mcp__everything__')).toEqual(everythingNames)
    expect(pid('memory')).toBe(memoryPid)
    for (const snapshot of snapshots) expect(snapshot).toEqual(expect.arrayContaining([...memoryTools.keys()]))
  })

  it('a removed entry is disposed: its tools are gone and its server process ended', async () => {
    const everythingPid = pid('main-server')
    const { value: result, lines } = await logsDuring(() => saveEntries([entry('memory', memory())]))
    expect(result).toMatchObject({ ok: true, removed: ['main-server'], unchanged: ['memory'] })
    expect(lines).toMatch(/removed "main-server"/)
    expect(names('mcp__everything__')).toEqual([])
    expect(alive(everythingPid)).toBe(false)
    expect(definitions('mcp__memory__')).toEqual(memoryTools)
  })

  it('an added entry is loaded next to the running one', async () => {
    const { value: result } = await logsDuring(() => saveEntries([entry('memory', memory()), entry('everything', everything())]))
    expect(result).toMatchObject({ ok: true, added: ['everything'], unchanged: ['memory'] })
    expect(names('mcp__everything__')).toEqual(everythingNames)
    expect(host.loader.entries().map((e) => e.id)).toEqual(['memory', 'everything'])
    expect(pid('memory')).toBe(memoryPid)
  })

  it('an invalid serverName is reported against the entry and field; the running instance keeps its config', async () => {
    const fiber = host.loader.fiber('memory')
    const { value: result, lines } = await logsDuring(() =>
      saveEntries([entry('memory', memory({ serverName: 'bad name!' })), entry('everything', everything())]),
    )
    expect(result).toMatchObject({ ok: false, added: [], updated: [], removed: [], unchanged: ['everything'], held: ['memory'] })
    // The field and its own line, as HOSTING promises (the entry starts on line 1, serverName is on line 4).
    expect(result.errors).toEqual([{ entry: 'memory', field: 'config.serverName', line: 4, message: expect.stringMatching(/^serverName "bad name!" is invalid/) }])
    expect(lines).toMatch(/\[error\] loader: .*cordis\.yml:4: entry "memory": config\.serverName: serverName "bad name!" is invalid/)
    expect(lines).toMatch(/entry "memory" has errors: its running instance keeps its previous config/)
    // That is said once; nothing else repeats the error.
    expect(lines.match(/has errors/g)).toHaveLength(1)
    expect(host.loader.fiber('memory')).toBe(fiber)
    expect(pid('memory')).toBe(memoryPid)
    expect(definitions('mcp__memory__')).toEqual(memoryTools)
  })

  it('a new entry with errors is one line: the error, with no second line saying it is not loaded', async () => {
    const { value: result, lines } = await logsDuring(() =>
      saveEntries([entry('memory', memory({ serverName: 'bad name!' })), entry('everything', everything()), entry('fresh', everything({ serverName: 'fresh one' }))]),
    )
    expect(result).toMatchObject({ ok: false, added: [], held: ['memory', 'fresh'] })
    const fresh = lines.split('\n').filter((line) => line.includes('"fresh"'))
    expect(fresh).toEqual([expect.stringMatching(/\[error\] loader: .*cordis\.yml:\d+: entry "fresh": config\.serverName: serverName "fresh one" is invalid/)])
    expect(lines).not.toMatch(/not loaded/)
  })

  it('a file that is not valid YAML changes nothing and says why', async () => {
    const before = host.tools.list().map((t) => t.name)
    const { value: result, lines } = await logsDuring(() => save('- id: memory\n  config: {\n- id: everything\n'))
    expect(result).toMatchObject({ ok: false, added: [], updated: [], removed: [], unchanged: ['memory', 'everything'] })
    expect(result.errors[0]?.message).toMatch(/^invalid YAML: /)
    expect(lines).toMatch(/\[error\] loader: .*cordis\.yml:3: invalid YAML: .*; kept the 2 running entries as they were/)
    expect(host.tools.list().map((t) => t.name)).toEqual(before)
  })

  it('fixing the file again leaves the still-running instances alone', async () => {
    const fiber = host.loader.fiber('memory')
    const result = await saveEntries([entry('memory', memory()), entry('everything', everything())])
    expect(result).toMatchObject({ ok: true, added: [], updated: [], removed: [], unchanged: ['memory', 'everything'] })
    expect(host.loader.fiber('memory')).toBe(fiber)
    expect(definitions('mcp__memory__')).toEqual(memoryTools)
  })

  it('a duplicate serverName fails the later entry only; giving it its own serverName restarts it', async () => {
    const { value: failed, lines } = await logsDuring(() =>
      saveEntries([entry('memory', memory()), entry('everything', everything()), entry('memory2', memory())]),
    )
    expect(failed).toMatchObject({ ok: false, added: ['memory2'], unchanged: ['memory', 'everything'] })
    expect(failed.errors).toEqual([{ entry: 'memory2', message: expect.stringMatching(/^failed to start: .*serverName "memory" is already used/) }])
    expect(lines).toMatch(/\[error\] loader: .*entry "memory2": failed to start/)
    expect(definitions('mcp__memory__')).toEqual(memoryTools)

    const fixed = await saveEntries([entry('memory', memory()), entry('everything', everything()), entry('memory2', memory({ serverName: 'memory2' }))])
    expect(fixed).toMatchObject({ ok: true, updated: ['memory2'], unchanged: ['memory', 'everything'] })
    expect(names('mcp__memory2__')).toEqual([...memoryTools.keys()].map((n) => n.replace('mcp__memory__', 'mcp__memory2__')))
  })

  it('disposing the host ends every server process it started', async () => {
    const pids = ['memory', 'everything', 'memory2'].map(pid)
    expect(pids.every(alive)).toBe(true)
    await host.dispose()
    expect(pids.filter(alive)).toEqual([])
    expect(host.tools.list()).toEqual([])
  })
})
