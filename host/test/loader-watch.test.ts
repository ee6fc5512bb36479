import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createFileHost, type FileHost, type FileHostOptions } from '../src/loader/host.ts'
import type { ReloadResult } from '../src/loader/types.ts'

/** `FiberState.ACTIVE`; the enum is const in cordis' typings. */
const ACTIVE = 2

/**
 * The loader's I/O layer (watching, resolving, ordering, retrying) with small in-process plugins,
 * so every behaviour is fast and deterministic; loader-reload.test.ts covers real MCP servers.
 */
const events: string[] = []
let flakyFails = false

const probe = {
  name: 'probe',
  inject: ['tools'],
  // Zod strips unknown keys, which is what lets the loader warn about them.
  Config: z.object({ label: z.string(), n: z.number().int().min(0).default(0) }),
  apply: (ctx: Context, config: { label: string; n: number }) => {
    events.push(`apply ${config.label} ${config.n}`)
    ctx.tools.register({ name: `probe_${config.label}`, description: 'probe', parameters: { type: 'object' }, execute: async () => config.n })
    ctx.effect(() => () => void events.push(`dispose ${config.label}`))
  },
}
const provider = {
  name: 'provider',
  // Asynchronous on purpose: the consumer can only start after this resolves.
  apply: async (ctx: Context) => {
    await new Promise((resolve) => setImmediate(resolve))
    ctx.provide('greeter', { greet: () => 'hi' })
  },
}
const consumer = {
  name: 'consumer',
  inject: ['greeter'],
  apply: async () => {
    await new Promise((resolve) => setImmediate(resolve))
    events.push('consumer started')
  },
}
/** Needs `greeter`, provides `relayed`: a chain of three entries listed back to front. */
const relay = {
  name: 'relay',
  inject: ['greeter'],
  apply: async (ctx: Context) => {
    await new Promise((resolve) => setImmediate(resolve))
    ctx.provide('relayed', {})
  },
}
const last = {
  name: 'last',
  inject: ['relayed'],
  apply: async () => {
    await new Promise((resolve) => setImmediate(resolve))
    events.push('last started')
  },
}
const flaky = {
  name: 'flaky',
  apply: async () => {
    if (flakyFails) throw new Error('not today')
    events.push('flaky started')
  },
}

let dir: string
let file: string
let host: FileHost | undefined
const logs: string[] = []

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loader-watch-'))
  file = join(dir, 'cordis.yml')
  events.length = 0
  logs.length = 0
  flakyFails = false
})
afterEach(async () => {
  await host?.dispose()
  host = undefined
  await rm(dir, { recursive: true, force: true })
})

async function start(text: string, options: Partial<FileHostOptions> = {}): Promise<FileHost> {
  await writeFile(file, text)
  host = await createFileHost({
    file,
    watch: true,
    debounceMs: 10,
    plugins: { probe, provider, consumer, relay, last, flaky },
    logging: { level: 'debug', write: (line) => logs.push(line) },
    ...options,
  })
  return host
}

/** Saves like vim or VS Code: a new file renamed over the old one. */
async function replaceFile(text: string): Promise<ReloadResult> {
  const next = host!.loader.nextReload()
  await writeFile(join(dir, 'cordis.yml.swp'), text)
  await rename(join(dir, 'cordis.yml.swp'), file)
  return next
}

/** Saves like `echo >`: the same inode, truncated and rewritten. */
async function writeInPlace(text: string): Promise<ReloadResult> {
  const next = host!.loader.nextReload()
  await writeFile(file, text)
  return next
}

const probeEntry = (id: string, label = id, n = 0, name = 'probe') => `- { id: ${id}, name: ${name}, config: { label: ${label}, n: ${n} } }\n`
const toolNames = () => host!.tools.list().map((t) => t.name)

describe('watching cordis.yml', () => {
  it('reloads when an editor replaces the file and when it is written in place', async () => {
    await start(probeEntry('a') + probeEntry('b'))
    expect(toolNames()).toEqual(['probe_a', 'probe_b'])

    expect(await replaceFile(probeEntry('a', 'a', 1) + probeEntry('b'))).toMatchObject({ ok: true, updated: ['a'], unchanged: ['b'] })
    expect(await writeInPlace(probeEntry('a', 'a', 1) + probeEntry('b', 'b', 2))).toMatchObject({ ok: true, updated: ['b'], unchanged: ['a'] })
    // Each update disposed exactly the old instance of its own entry, then applied the new config.
    expect(events).toEqual(['apply a 0', 'apply b 0', 'dispose a', 'apply a 1', 'dispose b', 'apply b 2'])
    expect(await host!.tools.execute('probe_b', {})).toMatchObject({ isError: false, value: 2 })
  })

  it('does not reload for a save without changes, nor for other files in the directory', async () => {
    const text = probeEntry('a')
    await start(text)
    const results: ReloadResult[] = []
    host!.loader.onReload((result) => results.push(result))
    await writeFile(file, text)
    await writeFile(join(dir, 'other.yml'), 'ignored')
    // Proving that nothing happens needs time to pass: well beyond the 10 ms debounce.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(results).toEqual([])
    const changed = await writeInPlace(probeEntry('a', 'a', 5))
    expect(changed).toMatchObject({ updated: ['a'] })
    expect(results).toEqual([changed])
    expect(events).toEqual(['apply a 0', 'dispose a', 'apply a 5'])
  })

  it('a plugin whose name changed is disposed and loaded again; a plugin may be a path relative to the file', async () => {
    await writeFile(
      join(dir, 'local-plugin.mjs'),
      `export const name = 'local'\nexport const inject = ['tools']\nexport const apply = (ctx, config) => { ctx.tools.register({ name: 'local_' + config.label, description: 'local', parameters: { type: 'object' }, execute: async () => 'local' }) }\n`,
    )
    await start(probeEntry('a') + probeEntry('b'))
    const before = host!.loader.fiber('a')
    const result = await replaceFile(probeEntry('a', 'a', 0, './local-plugin.mjs') + probeEntry('b'))
    expect(result).toMatchObject({ ok: true, updated: ['a'], unchanged: ['b'] })
    expect(host!.loader.fiber('a')).not.toBe(before)
    expect(toolNames()).toEqual(['local_a', 'probe_b'])
    expect(logs.join('\n')).toMatch(/replaced "a": now runs \.\/local-plugin\.mjs/)
  })

  it('registers every entry before awaiting any: a consumer listed before its provider still starts', async () => {
    await start('- { id: consumer, name: consumer }\n- { id: provider, name: provider }\n')
    expect(host!.loaded).toMatchObject({ ok: true, added: ['consumer', 'provider'], warnings: [] })
    expect(host!.loader.fiber('consumer')?.state).toBe(ACTIVE)
    expect(events).toEqual(['consumer started'])
  })

  it('waits for a chain of providers however the entries are ordered', async () => {
    await start('- { id: last, name: last }\n- { id: relay, name: relay }\n- { id: provider, name: provider }\n')
    expect(host!.loaded).toMatchObject({ ok: true, warnings: [] })
    expect(['last', 'relay', 'provider'].map((id) => host!.loader.fiber(id)?.state)).toEqual([ACTIVE, ACTIVE, ACTIVE])
    expect(events).toEqual(['last started'])
  })

  it('reports an entry that waits for a service nobody provides', async () => {
    await start('- { id: consumer, name: consumer }\n')
    expect(host!.loaded.warnings).toEqual([{ entry: 'consumer', message: 'is waiting for service(s) greeter: it starts when they are provided' }])
  })

  it('disabled: true removes a running entry; removing the flag loads it again', async () => {
    await start(probeEntry('a') + probeEntry('b'))
    const off = await replaceFile(probeEntry('a') + '- { id: b, name: probe, disabled: true, config: { label: b } }\n')
    expect(off).toMatchObject({ ok: true, removed: ['b'], unchanged: ['a'], disabled: ['b'] })
    expect(toolNames()).toEqual(['probe_a'])
    expect(await replaceFile(probeEntry('a') + probeEntry('b'))).toMatchObject({ added: ['b'], unchanged: ['a'] })
  })

  it('an unknown plugin is an error naming the entry and field; the other entries load', async () => {
    await start(probeEntry('a') + '- { id: ghost, name: not-an-installed-plugin }\n' + probeEntry('c'))
    expect(host!.loaded).toMatchObject({ ok: false, added: ['a', 'c'], held: ['ghost'] })
    expect(host!.loaded.errors).toEqual([
      { entry: 'ghost', field: 'name', line: 2, message: expect.stringMatching(/^unknown plugin "not-an-installed-plugin": no such package is installed/) },
    ])
    expect(logs.join('\n')).toMatch(/\[error\] loader: .*cordis\.yml:2: entry "ghost": name: unknown plugin/)
    // One line for the bad entry: no second line repeating that it is not loaded.
    expect(logs.join('\n')).not.toMatch(/entry "ghost" has errors/)
  })

  it('a missing environment variable holds that entry at its running config', async () => {
    await start(probeEntry('a') + probeEntry('b'), { env: {} })
    const fiber = host!.loader.fiber('b')
    const result = await replaceFile(probeEntry('a', 'a', 1) + '- { id: b, name: probe, config: { label: !env B_LABEL } }\n')
    expect(result).toMatchObject({ ok: false, updated: ['a'], held: ['b'] })
    expect(result.errors).toEqual([
      { entry: 'b', field: 'config.label', line: 2, message: expect.stringMatching(/^environment variable B_LABEL is not set/) },
    ])
    expect(host!.loader.fiber('b')).toBe(fiber)
    expect(toolNames()).toEqual(['probe_a', 'probe_b'])
  })

  it('an invalid config field is reported and the entry is not started', async () => {
    await start('- { id: a, name: probe, config: { n: 1 } }\n' + probeEntry('b'))
    expect(host!.loaded.errors).toEqual([{ entry: 'a', field: 'config.label', line: 1, message: expect.stringMatching(/expected string/) }])
    expect(toolNames()).toEqual(['probe_b'])
  })

  it('an option the plugin does not know is a warning', async () => {
    await start('- { id: a, name: probe, config: { label: a, nn: 1 } }\n')
    expect(host!.loaded.warnings).toEqual([{ entry: 'a', field: 'config.nn', line: 1, message: 'is not an option of this plugin and was ignored' }])
  })

  it('an entry without a usable id never causes a removal', async () => {
    await start(probeEntry('a') + probeEntry('b'))
    const result = await replaceFile(probeEntry('a') + '- { name: probe, config: { label: b } }\n')
    expect(result).toMatchObject({ ok: false, removed: [], unchanged: ['a'] })
    expect(result.errors[0]).toMatchObject({ entry: '#2', field: 'id' })
    expect(toolNames()).toEqual(['probe_a', 'probe_b'])
  })

  it('reload() retries an entry whose start failed, even when the file did not change', async () => {
    flakyFails = true
    await start('- { id: f, name: flaky }\n' + probeEntry('a'))
    expect(host!.loaded).toMatchObject({ ok: false, added: ['f', 'a'] })
    expect(host!.loaded.errors).toEqual([{ entry: 'f', message: 'failed to start: not today' }])
    expect(host!.loader.entries().find((e) => e.id === 'f')?.error).toBeInstanceOf(Error)

    flakyFails = false
    const result = await host!.loader.reload()
    expect(result).toMatchObject({ ok: true, updated: ['f'], unchanged: ['a'] })
    expect(events).toContain('flaky started')
    expect(logs.join('\n')).toMatch(/restarted "f" \(its last start failed\)/)
  })

  it('dispose disposes every entry and stops the loader', async () => {
    await start(probeEntry('a') + probeEntry('b'))
    await host!.loader.dispose()
    expect(events).toEqual(expect.arrayContaining(['dispose a', 'dispose b']))
    expect(toolNames()).toEqual([])
    expect(await host!.loader.reload()).toMatchObject({ ok: false, errors: [{ message: 'the loader was disposed' }] })
  })
})
