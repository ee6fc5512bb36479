import { execFile, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
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
    // It polls every 250 ms; the bound only catches a fixture that never ends (a loaded 2-core
    // machine with four test files and busy loops beside it took over 10 s to schedule the exit).
    await expect.poll(() => {
      try {
        process.kill(pid, 0)
        return 'alive'
      } catch {
        return 'gone'
      }
    }, { timeout: 30_000 }).toBe('gone')
  })

  const runCli = (args: string[]) =>
    promisify(execFile)(process.execPath, [bin, ...args]).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    )

  it('--help and --version print on stdout and exit 0 without serving', async () => {
    const help = await runCli(['--help'])
    expect(help).toMatchObject({ code: 0, stderr: '' })
    expect(help.stdout).toMatch(/^Usage:\n {2}mcp-fixture <behaviour\.yaml\|json> \[--transport stdio\|http\] \[--port N\]\n/)
    expect(await runCli(['-h'])).toEqual(help)
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `mcp-fixture ${version}\n`, stderr: '' })
  })

  it.each([
    [['--nope'], 'unknown option --nope'],
    [[example('names.yaml'), '--transport', 'pigeon'], '--transport must be stdio or http, not "pigeon"'],
    [[example('names.yaml'), '--port', '65536'], '--port must be a whole number from 0 to 65535, not "65536"'],
    [[example('names.yaml'), '--port'], '--port needs a value'],
    [[example('names.yaml'), 'extra.yaml'], 'unexpected argument "extra.yaml"'],
    [[], 'missing the behaviour: give a behaviour file or --json'],
    [[example('names.yaml'), '--json', '{}'], 'give a behaviour file or --json, not both'],
  ])('usage error %j: exit 2, one line of reason, then the pointer to --help', async (args, reason) => {
    expect(await runCli(args)).toEqual({ code: 2, stdout: '', stderr: `mcp-fixture: ${reason}\nrun \`mcp-fixture --help\` for usage\n` })
  })

  it('exits 2 naming each problem of an invalid behaviour', async () => {
    const invalid = await runCli(['--json', JSON.stringify({ tools: [{ nmae: 'x' }] })])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toContain('tools[0].nmae: unknown key')
    expect(invalid.stderr).not.toContain('--help')
  })
})
