import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './support/cleanup.ts'
import { closedPort } from './support/http-server.ts'
import { everythingServer, everythingStdio, filesystemServer, isAlive, pidOf, startHost } from './support/host.ts'


describe('the bridge against real MCP servers', () => {
  it('bridges server-everything over stdio and stops its child on dispose', async () => {
    const host = await startHost()
    const fiber = await host.load(everythingStdio())
    const names = host.tools.list().map((t) => t.name)
    expect(names).toContain('mcp__everything__echo')
    expect(names).toContain('mcp__everything__get-sum')
    expect(names.every((n) => n.startsWith('mcp__everything__'))).toBe(true)
    // Its task-only tool is registered: the server declares tasks.requests.tools.call, so it is called as a task.
    expect(names).toContain('mcp__everything__simulate-research-query')
    expect(host.logs.join('\n')).not.toMatch(/not registered/)

    expect(await host.tools.execute('mcp__everything__echo', { message: 'hi' })).toEqual({
      isError: false,
      value: { content: [{ type: 'text', text: 'Echo: hi' }] },
      content: [{ type: 'text', text: 'Echo: hi' }],
    })
    const sum = await host.tools.execute('mcp__everything__get-sum', { a: 2, b: 3 })
    expect(sum.isError === false && sum.content[0]).toEqual({ type: 'text', text: expect.stringContaining('5') })

    const pid = pidOf(fiber)
    expect(isAlive(pid)).toBe(true)
    await fiber.dispose()
    expect(host.tools.list()).toEqual([])
    expect(isAlive(pid)).toBe(false)
  })

  it('hosts two servers side by side in one context, each under its own namespace', async () => {
    const host = await startHost()
    const dir = tempDir('bridge-fs-')
    writeFileSync(join(dir, 'hello.txt'), 'hello from disk')
    await host.load(everythingStdio())
    await host.load({ transport: 'stdio', serverName: 'fs', command: process.execPath, args: [filesystemServer, dir] })
    const names = host.tools.list().map((t) => t.name)
    expect(names.filter((n) => n.startsWith('mcp__everything__')).length).toBeGreaterThan(5)
    expect(names).toContain('mcp__fs__read_text_file')
    expect(names).toContain('mcp__fs__list_directory')
    const read = await host.tools.execute('mcp__fs__read_text_file', { path: join(dir, 'hello.txt') })
    expect(read).toMatchObject({ isError: false, content: [{ type: 'text', text: 'hello from disk' }] })
    // server-filesystem reports refusals as isError results: they become error results.
    const denied = await host.tools.execute('mcp__fs__read_text_file', { path: '/etc/passwd' })
    expect(denied).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: expect.stringMatching(/denied|outside/i) } })
  })

  it('lets two servers publish the same raw name without collision', async () => {
    const host = await startHost()
    await host.load(everythingStdio('a'))
    await host.load(everythingStdio('b'))
    expect(await host.tools.execute('mcp__a__echo', { message: 'from a' })).toMatchObject({ content: [{ text: 'Echo: from a' }] })
    expect(await host.tools.execute('mcp__b__echo', { message: 'from b' })).toMatchObject({ content: [{ text: 'Echo: from b' }] })
  })

  it('fails a second instance with the same serverName, and releases the name on dispose', async () => {
    const host = await startHost()
    const first = await host.load(everythingStdio('dup'))
    await expect(host.load(everythingStdio('dup'))).rejects.toThrow(/serverName "dup" is already used by another mcp-client instance/)
    await first.dispose()
    // The HMR pattern: dispose, then apply again with the same serverName.
    await host.load(everythingStdio('dup'))
    expect(host.tools.get('mcp__dup__echo')).toBeDefined()
  })

  it('keeps credential-shaped parent variables away from the child unless config passes them', async () => {
    const host = await startHost()
    process.env.CANARY_API_KEY = 'canary-ambient'
    process.env.CANARY_DATABASE_URL = 'postgres://app:hunter2@db/prod'
    try {
      await host.load(everythingStdio('scrubbed'))
      await host.load(everythingStdio('explicit', { env: { CANARY_API_KEY: 'canary-explicit' } }))
    } finally {
      delete process.env.CANARY_API_KEY
      delete process.env.CANARY_DATABASE_URL
    }
    const text = async (name: string) => {
      const result = await host.tools.execute(name, {})
      return result.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
    }
    const scrubbed = await text('mcp__scrubbed__get-env')
    expect(scrubbed).toContain('PATH')
    expect(scrubbed).not.toContain('canary')
    expect(await text('mcp__explicit__get-env')).toContain('canary-explicit')
  })

  it('bridges server-everything over Streamable HTTP', async () => {
    const port = await closedPort()
    const child: ChildProcess = spawn(process.execPath, [everythingServer, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          if (/listening|running|port/i.test(chunk.toString())) resolve()
        }
        child.stdout?.on('data', onData)
        child.stderr?.on('data', onData)
        child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)))
      })
      const host = await startHost()
      await host.load({ transport: 'streamable-http', serverName: 'web', url: `http://127.0.0.1:${port}/mcp` })
      expect(await host.tools.execute('mcp__web__echo', { message: 'over http' })).toMatchObject({
        isError: false,
        content: [{ type: 'text', text: 'Echo: over http' }],
      })
    } finally {
      child.kill('SIGKILL')
    }
  })
})
