import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { simulatedBrowser } from '@mcp-bridge/conformance/sign-in'
import { startHttpFixture, type HttpFixture } from '@mcp-bridge/fixtures-server'
import { afterEach, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'

const bin = fileURLToPath(new URL('../bin/mcp-bridge.js', import.meta.url))
const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * The built CLI as a child process. `onLine` sees each stderr line as it comes: the simulated
 * browser follows the authorization URL the login prints.
 */
function cli(args: string[], env: Record<string, string>, onLine?: (line: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let pending = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop()!
      for (const line of lines) onLine?.(line)
    })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** A person's browser: the kit's simulated one, which ends at the bridge's loopback listener. */
const browse = simulatedBrowser(30_000)
/**
 * The same browser as a program of its own, for BROWSER: plain Node resolves the kit's export to
 * its build (the tests' source condition is vite's alone), which the child can import.
 */
const builtSignIn = pathToFileURL(createRequire(import.meta.url).resolve('@mcp-bridge/conformance/sign-in')).href

async function follow(url: string, visited: string[]): Promise<void> {
  const ended = await browse({ url, signal: new AbortController().signal })
  if (ended) visited.push(ended)
}

async function setup() {
  const fx: HttpFixture = await startHttpFixture(
    { tools: [{ name: 'echo' }], http: { oauth: { clientId: 'unused', authorize: 'approve', registration: true, refreshTokens: 'valid', requireResource: true } } },
    { memoryWire: true },
  )
  cleanup.push(() => fx.close())
  const dir = await mkdtemp(join(tmpdir(), 'mcp-bridge-login-'))
  cleanup.push(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'cordis.yml')
  const entry = { transport: 'streamable-http', serverName: 'guarded', url: fx.url, auth: { type: 'authorization_code' }, reconnect: { enabled: false } }
  await writeFile(file, stringify([{ id: 'guarded', name: 'mcp-client', config: entry }]))
  const credentials = join(dir, 'credentials')
  // No browser of the machine's: each test plays the browser itself, or names one in BROWSER.
  return { fx, dir, file, credentials, env: { MCP_BRIDGE_CREDENTIALS_DIR: credentials, BROWSER: '', DISPLAY: '', WAYLAND_DISPLAY: '' } }
}

describe('mcp-bridge login and logout', () => {
  it('opens the browser BROWSER names with the authorization URL, and signs in through it', async () => {
    const { dir, file, credentials, env } = await setup()
    // The browser: a script that follows the URL it is given to the bridge's loopback listener.
    const browser = join(dir, 'browser.mjs')
    await writeFile(
      browser,
      `import { simulatedBrowser } from ${JSON.stringify(builtSignIn)}
      await simulatedBrowser(30_000)({ url: process.argv[2], signal: new AbortController().signal })`,
    )
    const login = await cli(['--config', file, 'login', 'guarded'], { ...env, BROWSER: `${process.execPath} ${browser}` })
    expect(login).toMatchObject({ code: 0, stdout: 'signed in to server "guarded"\n' })
    expect(readdirSync(credentials)).toHaveLength(1)
  })

  it('names a browser it could not start, and still waits for the URL it printed', async () => {
    const { file, env } = await setup()
    const visited: string[] = []
    const browsing: Promise<void>[] = []
    const login = await cli(['--config', file, 'login', 'guarded'], { ...env, BROWSER: '/nonexistent/browser' }, (line) => {
      if (line.startsWith('http://127.0.0.1') && line.includes('/authorize?')) browsing.push(follow(line, visited))
    })
    await Promise.all(browsing)
    expect(login).toMatchObject({ code: 0, stdout: 'signed in to server "guarded"\n' })
    expect(login.stderr).toMatch(/^mcp-bridge: could not open a browser \(.*ENOENT.*\); open the URL above$/m)
  })

  it('signs in with a simulated browser, stores the tokens 0600, calls a tool with them, and logs out', async () => {
    const { fx, file, credentials, env } = await setup()
    const visited: string[] = []
    const browsing: Promise<void>[] = []
    const login = await cli(['--config', file, 'login', 'guarded'], env, (line) => {
      if (line.startsWith('http://127.0.0.1') && line.includes('/authorize?')) browsing.push(follow(line, visited))
    })
    await Promise.all(browsing)
    expect(login).toMatchObject({ code: 0, stdout: 'signed in to server "guarded"\n' })
    expect(login.stderr).toMatch(/^mcp-bridge: to sign in to server "guarded", open this URL in a browser/)

    const files = readdirSync(credentials)
    expect(files).toHaveLength(1)
    expect(statSync(join(credentials, files[0]!)).mode & 0o777).toBe(0o600)
    expect(statSync(credentials).mode & 0o777).toBe(0o700)
    const record = JSON.parse(readFileSync(join(credentials, files[0]!), 'utf8'))
    const tokens = record.tokens[fx.url]
    expect(record.issuer).toBe(new URL(fx.url).origin)
    expect(tokens.accessToken).toMatch(/^fixture-at-/)

    const call = await cli(['--config', file, '--log-level', 'debug', 'call', 'mcp__guarded__echo'], env)
    expect(call.code).toBe(0)
    // The canary check: no code, token or registration secret in anything either run printed.
    const code = new URL(visited.find((url) => url.includes('/callback?'))!).searchParams.get('code')!
    const stored = JSON.parse(readFileSync(join(credentials, files[0]!), 'utf8')).tokens[fx.url]
    for (const secret of [code, tokens.accessToken, tokens.refreshToken, stored.accessToken, stored.refreshToken]) {
      expect(secret).toBeTruthy()
      for (const output of [login.stdout, login.stderr, call.stdout, call.stderr]) expect(output).not.toContain(secret)
    }
    const grants = fx.wire!.http.flatMap((entry) => (entry.token ? [`${entry.token.grant}:${entry.token.outcome}`] : []))
    expect(grants).toEqual(['authorization_code:issued', 'refresh_token:issued'])

    const logout = await cli(['--config', file, 'logout', 'guarded'], env)
    expect(logout).toMatchObject({ code: 0, stdout: 'signed out of server "guarded"\n' })
    const after = await cli(['--config', file, 'call', 'mcp__guarded__echo'], env)
    expect(after.code).toBe(1)
    expect(after.stderr).toContain('server "guarded" needs a person to sign in at')
    expect(after.stderr).toContain('run `mcp-bridge login guarded` first')
  })

  it('names the entry it cannot find, and a server that is not configured to sign in', async () => {
    const { file, env } = await setup()
    expect(await cli(['--config', file, 'login', 'other'], env)).toMatchObject({ code: 1, stderr: expect.stringContaining(`no enabled bridge entry in ${file} has serverName "other"`) })
    await writeFile(file, stringify([{ id: 'plain', name: 'mcp-client', config: { transport: 'streamable-http', serverName: 'plain', url: 'http://127.0.0.1:9/mcp' } }]))
    expect(await cli(['--config', file, 'login', 'plain'], env)).toMatchObject({ code: 1, stderr: expect.stringContaining('server "plain" is not configured to sign in: set auth.type to authorization_code') })
  })
})
