import { execFile, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureCommand } from '../src/index.ts'
import { ChildTransport } from './support/child-transport.ts'
import { example, expectGone, liveFixtureChildren } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

const bin = fileURLToPath(new URL('../bin/mcp-fixture.js', import.meta.url))

const firstLine = (stream: NodeJS.ReadableStream) =>
  new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: stream })
    lines.once('line', resolve)
    lines.once('close', () => reject(new Error('stream ended without a line')))
  })

describe('mcp-fixture CLI', () => {
  it('bin shim, HTTP: one readiness line with the real URL, serves, exits when stdin closes', async () => {
    const child = spawn(process.execPath, [bin, example('pagination.yaml'), '--transport', 'http'], { stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])))
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const ready = JSON.parse(await firstLine(child.stdout)) as { ready: boolean; url: string; pid: number }
    expect(ready).toEqual({ ready: true, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/), pid: child.pid })
    const client = new Client({ name: 'cli-test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(ready.url)))
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['t1', 't2'])
    await client.close()
    child.stdin.end()
    expect(await exited).toEqual([0, null])
    expect(stdout).toBe(`${JSON.stringify(ready)}\n`)
    expectGone(child.pid!)
  })

  it('stdio: stdout carries JSON-RPC only, whatever the noise', async () => {
    const { command, args } = fixtureCommand({
      stderr: ['start-up noise'],
      tools: [{ name: 'has space/slash!', stderr: 'call noise', result: { content: [{ type: 'text', text: 'x'.repeat(70_000) }] } }],
    })
    const transport = new ChildTransport(command, args)
    const client = new Client({ name: 'cli-test', version: '1' })
    await client.connect(transport)
    await client.listTools()
    await client.callTool({ name: 'has space/slash!' })
    await transport.close()
    expect(await transport.exited).toEqual({ code: 0, signal: null })
    const lines = Buffer.concat(transport.stdout).toString().trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' })
    expect(transport.stderr).toContain('start-up noise\n')
    expect(transport.stderr).toContain('call noise\n')
  })

  it('dies with its parent even when stdin tells it nothing', async () => {
    const { command, args } = fixtureCommand(example('pagination.yaml'), { transport: 'http' })
    // A parent that starts the fixture with stdin on /dev/null, reports its pid, then idles.
    const script = `
      const { spawn } = require('node:child_process')
      const child = spawn(${JSON.stringify(command)}, ${JSON.stringify(args)}, { stdio: ['ignore', 'pipe', 'inherit'] })
      child.stdout.once('data', () => console.log(child.pid))
      setInterval(() => {}, 1000)`
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    const pid = Number(await firstLine(parent.stdout))
    expect(() => process.kill(pid, 0)).not.toThrow()
    parent.kill('SIGKILL')
    await expect.poll(() => {
      try {
        process.kill(pid, 0)
        return 'alive'
      } catch {
        return 'gone'
      }
    }, { timeout: 10_000 }).toBe('gone')
  })

  it('exits 2 naming the problem for an invalid behaviour or bad usage', async () => {
    const run = (extra: string[]) =>
      promisify(execFile)(process.execPath, [...fixtureCommand(example('names.yaml')).args.slice(0, 1), ...extra]).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      )
    const invalid = await run(['--json', JSON.stringify({ tools: [{ nmae: 'x' }] })])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toContain('tools[0].nmae: unknown key')
    const usage = await run([example('names.yaml'), '--transport', 'pigeon'])
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown transport pigeon') })
  })
})
