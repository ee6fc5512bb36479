import { resolve } from 'node:path'
import { fixtureCommand, startHttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { Config } from '../src/index.ts'
import { afterTest } from './support/cleanup.ts'
import { startHost, stateOf } from './support/host.ts'

const stdio = { transport: 'stdio', serverName: 'fs', command: 'node' }
const http = { transport: 'streamable-http', serverName: 'web', url: 'http://127.0.0.1:3000/mcp' }

/** The one message a bad config gets. */
function problem(input: unknown): string {
  const result = Config['~standard'].validate(input) as { issues?: Array<{ message: string }> }
  expect(result.issues, `accepted ${JSON.stringify(input)}`).toHaveLength(1)
  return result.issues![0]!.message
}

describe('a bad config gets one line that names the field and the fix', () => {
  it.each([
    [{ ...stdio, toolCallTimeoutMS: 5 }, 'mcp-client config: unknown key "toolCallTimeoutMS": did you mean "toolCallTimeoutMs"?'],
    [{ ...stdio, reconnect: { maxAttempt: 3 } }, 'mcp-client config: unknown key "reconnect.maxAttempt": did you mean "reconnect.maxAttempts"?'],
    [{ ...stdio, limits: { maxResultByte: 3 } }, 'mcp-client config: unknown key "limits.maxResultByte": did you mean "limits.maxResultBytes"?'],
    [{ ...stdio, colour: 'red' }, /^mcp-client config: unknown key "colour": known keys: transport, command, args, env, inheritEnv, cwd, killGraceMs, serverName/],
    [{ ...stdio, url: 'http://x/mcp' }, 'mcp-client config: "url" only applies to transport "streamable-http": remove it, or set transport to "streamable-http".'],
    [{ ...stdio, headers: {} }, 'mcp-client config: "headers" only applies to transport "streamable-http": remove it, or set transport to "streamable-http".'],
    [{ ...http, env: {} }, 'mcp-client config: "env" only applies to transport "stdio": remove it, or set transport to "stdio".'],
    [{ ...http, command: 'node' }, 'mcp-client config: "command" only applies to transport "stdio": remove it, or set transport to "stdio".'],
  ])('unknown keys: %j', (input, message) => {
    expect(problem(input)).toEqual(typeof message === 'string' ? message : expect.stringMatching(message))
  })

  it.each([
    [{ ...stdio, args: 'a b' }, '$.args expected array (got "a b")'],
    [{ ...stdio, env: 'API_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc' }, '$.env expected object (got a string of 40 characters)'],
    [{ ...stdio, env: { A: 5 } }, '$.env.A expected string (got 5): quote it: "5"'],
    [{ ...stdio, env: { DEBUG: true } }, '$.env.DEBUG expected string (got true): quote it: "true"'],
    [{ ...stdio, args: [3000] }, '$.args[0] expected string (got 3000): quote it: "3000"'],
    [{ ...stdio, cwd: 5 }, '$.cwd expected string (got 5): quote it: "5"'],
    [{ ...stdio, inheritEnv: 'LANG' }, '$.inheritEnv expected array (got "LANG")'],
    [{ ...http, headers: 5 }, '$.headers expected object (got 5)'],
    [{ ...http, headers: { authorization: ['Bearer x'] } }, '$.headers.authorization expected string (got a list)'],
    [{ ...http, url: 5 }, '$.url expected string (got 5): quote it: "5"'],
  ])('a wrong value in a transport field names that field, not the union: %j', (input, message) => {
    expect(problem(input)).toBe(message)
  })

  it.each([
    [{ ...http, headers: { authorization: 'Bearer a\nb' } }, 'mcp-client config: headers.authorization has an invalid value (a line break or a control character): fix the value where it is set.'],
    [{ ...http, headers: { 'bad name': 'x' } }, 'mcp-client config: headers has an invalid header name "bad name": use letters, digits and - only.'],
    // `Bearer ${process.env.MCP_TOKEN}` in a cordis.yml when MCP_TOKEN is not set.
    [{ ...http, headers: { Authorization: 'Bearer undefined' } }, 'mcp-client config: headers.Authorization ends in "undefined", which is what a template of an unset variable writes: set the variable before starting the host (or use an auth of type bearer with tokenEnv, which checks it).'],
    [{ ...http, headers: { 'x-api-key': 'undefined' } }, 'mcp-client config: headers.x-api-key ends in "undefined", which is what a template of an unset variable writes: set the variable before starting the host (or use an auth of type bearer with tokenEnv, which checks it).'],
    [{ ...stdio, inheritEnv: ['NODE_OPTIONS'] }, 'mcp-client config: inheritEnv[0] NODE_OPTIONS is never inherited (it can hijack the server\'s loader): set it in env if the server needs it.'],
    [{ ...stdio, inheritEnv: ['LANG', 'A B'] }, 'mcp-client config: inheritEnv[1] "A B" is not a variable name or a * glob of one (for example "LANG" or "LC_*").'],
    [{ ...http, url: 'ftp://user:hunter22@host/mcp?token=abc' }, 'mcp-client config: url uses "ftp:": only http:// and https:// are supported (ftp://user:<redacted>@host/mcp?token=<redacted>).'],
    [{ ...http, url: 'not a url ghp_0123456789abcdefghijABCDEFGHIJ012345' }, 'mcp-client config: url a string of 50 characters is not a valid URL: write an absolute http:// or https:// URL.'],
    [{ ...stdio, transport: 'http' }, 'mcp-client config: transport expected "stdio" | "streamable-http" | "sse" (got "http").'],
  ])('%j', (input, message) => {
    expect(problem(input)).toBe(message)
  })

  it('never quotes a value that could be a secret', () => {
    for (const input of [
      { ...stdio, env: 'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345' },
      { ...stdio, serverName: 'ghp_0123456789abcdefghijABCDEFGHIJ012345' },
      { ...http, url: 'ghp_0123456789abcdefghijABCDEFGHIJ012345' },
      { ...http, headers: { authorization: 'ghp_0123456789abcdefghij\nABCDEFGHIJ012345' } },
    ]) {
      const message = problem(input)
      expect(message).not.toMatch(/ghp_|0123456789/)
      expect(message).not.toContain('\n')
    }
  })
})

describe('configuration errors at run time are said once, without a stack, and not retried', () => {
  const noisy = (logs: string[]) => logs.filter((line) => /retrying|reconnecting|^\s+at /m.test(line))

  it('a missing cwd is named as such, not "spawn node ENOENT"', async () => {
    const host = await startHost()
    const fiber = await host.load({ ...stdio, ...fixtureCommand({ tools: [{ name: 'echo' }] }), cwd: '/nonexistent/mcp-cwd' })
    const reason = 'mcp-client config: cwd "/nonexistent/mcp-cwd" is not an existing directory: set cwd to the server\'s working directory, or leave it out to use the host\'s; then reload the plugin'
    expect(stateOf(fiber)).toEqual({ kind: 'stopped', reason })
    expect(host.logs).toContain(`[error] mcp:fs: ${reason}`)
    expect(noisy(host.logs)).toEqual([])
  })

  it('a relative cwd that is missing names where it led and the !path that anchors it to the file', async () => {
    const host = await startHost()
    const fiber = await host.load({ ...stdio, ...fixtureCommand({ tools: [{ name: 'echo' }] }), cwd: 'no-such-relative-mcp-cwd' })
    const reason =
      'mcp-client config: cwd "no-such-relative-mcp-cwd" is not an existing directory: a relative cwd is resolved against the host\'s working directory, ' +
      `which gives ${resolve('no-such-relative-mcp-cwd')}; in cordis.yml write cwd: !path no-such-relative-mcp-cwd for a directory relative to the file, ` +
      'or set an absolute path, or leave cwd out to use the host\'s; then reload the plugin'
    expect(stateOf(fiber)).toEqual({ kind: 'stopped', reason })
    expect(host.logs).toContain(`[error] mcp:fs: ${reason}`)
  })

  it('a missing command is named as such', async () => {
    const host = await startHost()
    const fiber = await host.load({ ...stdio, command: 'no-such-mcp-server-binary' })
    expect(stateOf(fiber)).toMatchObject({
      kind: 'stopped',
      reason: expect.stringMatching(/^mcp-client config: command "no-such-mcp-server-binary" was not found: it is not on the PATH the server is given \(.*\); set command to an absolute path or add the directory to PATH with env; then reload the plugin$/),
    })
    expect(noisy(host.logs)).toEqual([])
  })

  it('an invalid header value is a configuration error: no request is ever sent', async () => {
    const fixture = await startHttpFixture({ tools: [{ name: 'echo' }] }, { memoryWire: true })
    afterTest(fixture, (f) => f.close())
    const host = await startHost()
    await expect(host.load({ ...http, url: fixture.url, headers: { 'x-tenant': 'a\r\nb' } })).rejects.toThrow(
      /mcp-client config: headers\.x-tenant has an invalid value/,
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(fixture.wire!.entries).toEqual([])
    expect(noisy(host.logs.filter((line) => line.startsWith('[warn]')))).toEqual([])
  })

  it('a duplicate serverName: one line, no stack trace', async () => {
    const host = await startHost()
    const server = fixtureCommand({ tools: [{ name: 'echo' }] })
    await host.load({ ...stdio, ...server, serverName: 'twin' })
    await expect(host.load({ ...stdio, ...server, serverName: 'twin' })).rejects.toThrow(/serverName "twin" is already used/)
    const lines = host.logs.filter((line) => line.includes('already used'))
    expect(lines).toEqual([
      '[error] mcp-client: BridgeError: mcp-client: serverName "twin" is already used by another mcp-client instance; give each server a unique serverName',
    ])
  })

  it('failOnStartupError: activation rejects with one line, and nothing announces a retry', async () => {
    const host = await startHost()
    await expect(host.load({ ...stdio, command: process.execPath, args: ['-e', 'process.exit(3)'], failOnStartupError: true })).rejects.toThrow(
      /^mcp-client\(fs\): initial connection or tool discovery failed \(failOnStartupError\): server\/discover failed: /,
    )
    expect(noisy(host.logs)).toEqual([])
    expect(host.logs.filter((line) => line.startsWith('[error]'))).toHaveLength(1)
  })
})
