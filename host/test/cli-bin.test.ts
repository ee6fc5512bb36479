import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { stringify } from 'yaml'

const require = createRequire(import.meta.url)
const bin = fileURLToPath(new URL('../bin/mcp-bridge.js', import.meta.url))
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const filesystemServer = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js')

/**
 * Every server this file's configs start carries TAG in its environment, set through the config's
 * explicit `env` (which the bridge always passes, whatever it inherits from the parent), so after
 * the CLI exits we can prove none of its servers outlived it. Runs are sequential, so one tag serves.
 */
const TAG = randomUUID()

function taggedPids(tag: string): number[] {
  const marker = `MCP_BRIDGE_TEST_RUN=${tag}`
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)
      } catch {
        return false // exited while we looked
      }
    })
    .map(Number)
}

function leadsItsGroup(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pid
}

interface Run {
  code: number
  stdout: string
  stderr: string
  tag: string
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout, stderr, tag: TAG })
    })
  })
}

/** A child's stderr as it arrives; `until` resolves once a pattern appears after an offset. */
class StderrLog {
  text = ''
  private readonly waiters = new Set<() => void>()

  constructor(private readonly child: ChildProcess) {
    child.stderr!.on('data', (chunk: Buffer) => {
      this.text += chunk.toString()
      for (const waiter of [...this.waiters]) waiter()
    })
  }

  until(pattern: RegExp, from = 0): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!pattern.test(this.text.slice(from))) return
        this.waiters.delete(check)
        this.child.off('exit', onExit)
        resolve(this.text)
      }
      const onExit = (code: number | null) => reject(new Error(`exited with ${code} before ${pattern}; stderr:\n${this.text}`))
      this.waiters.add(check)
      this.child.once('exit', onExit)
      check()
    })
  }
}

let dir: string
/** Both servers; `single` has only server-everything, for runs that need no more. */
let config: string
let single: string
const servers = (extra: Record<string, unknown> = {}) => [
  {
    id: 'everything',
    name: '@mcp-bridge/plugin',
    config: { serverName: 'everything', transport: 'stdio', command: process.execPath, args: [everythingServer, 'stdio'], env: { MCP_BRIDGE_TEST_RUN: TAG }, ...extra },
  },
  {
    id: 'fs',
    name: 'mcp-client',
    config: { serverName: 'fs', transport: 'stdio', command: process.execPath, args: [filesystemServer, join(dir, 'sandbox')], env: { MCP_BRIDGE_TEST_RUN: TAG } },
  },
]

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-bin-'))
  await mkdir(join(dir, 'sandbox'))
  await writeFile(join(dir, 'sandbox', 'hello.txt'), 'hello from the sandbox\n')
  config = join(dir, 'cordis.yml')
  await writeFile(config, stringify(servers()))
  single = join(dir, 'single.yml')
  await writeFile(single, stringify(servers().slice(0, 1)))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('mcp-bridge tools / call', () => {
  it('tools prints every tool as the model sees it, and exits with no server left behind', async () => {
    const run = await runCli(['--config', config, 'tools'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      ['mcp__everything__echo', '  Echoes back the input string', '  arguments:', '    message  string, required  Message to echo'].join('\n'),
    )
    expect(run.stdout).toMatch(/^mcp__fs__read_text_file$/m)
    expect(run.stdout).not.toMatch(/^\[/m) // logs never reach stdout
    expect(taggedPids(run.tag)).toEqual([])
  })

  it('tools --json prints the exact list on stdout', async () => {
    const run = await runCli(['--config', config, 'tools', '--json'])
    expect(run.code).toBe(0)
    const tools = JSON.parse(run.stdout) as { name: string; description: string; parameters: Record<string, unknown> }[]
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__fs__read_text_file', 'mcp__fs__list_directory']))
    expect(names.every((name) => /^mcp__(everything|fs)__/.test(name))).toBe(true)
    expect(tools.find((tool) => tool.name === 'mcp__everything__echo')).toMatchObject({
      description: 'Echoes back the input string',
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    })
    expect(taggedPids(run.tag)).toEqual([])
  })

  it('call prints the content and the canonical value', async () => {
    const run = await runCli(['--config', single, 'call', 'mcp__everything__echo', '{"message":"hi"}'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('--- content (what the model sees) ---\nEcho: hi\n--- value ---\n')
    expect(run.stdout).toContain('"text": "Echo: hi"')
    expect(taggedPids(run.tag)).toEqual([])
  })

  it('call exits 1 when the result is an error, and --json gives the whole result', async () => {
    const run = await runCli(['--config', config, 'call', 'mcp__fs__read_text_file', '{"path":"missing.txt"}', '--json'])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: expect.stringContaining('ENOENT') } })
    const unknown = await runCli(['--config', single, 'call', 'mcp__nope__x'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/no tool is named "mcp__nope__x"; run "mcp-bridge --config .* tools" to list them/)
  })

  it('a server that cannot start makes tools exit 1, naming the entry on stderr; the others still list', async () => {
    const missing = join(dir, 'missing-command.yml')
    await writeFile(missing, stringify([servers()[0], { id: 'gone', name: 'mcp-client', config: { serverName: 'gone', transport: 'stdio', command: 'no-such-binary-for-mcp-bridge-test' } }]))
    const run = await runCli(['--config', missing, 'tools'])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^mcp__everything__echo$/m)
    // The reason is said once, by the log line; the summary line points at it.
    expect(run.stderr).toMatch(/^\[error\] mcp:gone: .*no-such-binary-for-mcp-bridge-test/m)
    expect(run.stderr).toMatch(/^mcp-bridge: server "gone" is not connected: it stopped \(the log above says why\)$/m)
    expect(run.stderr.match(/no-such-binary-for-mcp-bridge-test/g)).toHaveLength(1)
    // call names the server that is down rather than suggesting a typo in the tool's name
    const call = await runCli(['--config', missing, 'call', 'mcp__gone__x'])
    expect(call.code).toBe(1)
    expect(call.stderr).toMatch(/^mcp-bridge: server "gone" is not connected/m)
    expect(call.stderr).not.toMatch(/no tool is named/)
    expect(taggedPids(run.tag)).toEqual([])
  })

  it('SIGINT during a call aborts the call: the result is ABORTED, not a lost server, and the exit code 130', async () => {
    const wireLog = join(dir, 'stuck-wire.jsonl')
    const fixture = fixtureCommand({ tools: [{ name: 'stuck', hang: true }] })
    const file = join(dir, 'stuck.yml')
    const entry = { serverName: 'fx', transport: 'stdio', command: fixture.command, args: [...fixture.args, '--wire', wireLog], env: { MCP_BRIDGE_TEST_RUN: TAG } }
    await writeFile(file, stringify([{ id: 'fx', name: '@mcp-bridge/plugin', config: entry }]))
    const child = spawn(process.execPath, [bin, '--config', file, 'call', 'mcp__fx__stuck'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    // The fixture's wire log shows the call arriving: only then is it in flight. The bound is the
    // test's own less a margin: the CLI and its fixture start slowly beside other files on 2 cores.
    await vi.waitFor(() => expect(existsSync(wireLog) ? readFileSync(wireLog, 'utf8') : '').toMatch(/"tools\/call"/), { timeout: 45_000, interval: 20 })
    child.kill('SIGINT')
    expect(await exited).toBe(130)
    expect(stdout).toMatch(/--- error \(ABORTED\) ---/)
    expect(taggedPids(TAG)).toEqual([])
  })

  it('an entry that fails to load is named on stderr and makes tools exit 1; the others still list', async () => {
    const broken = join(dir, 'broken.yml')
    await writeFile(broken, stringify([servers()[0], { id: 'bad', name: 'mcp-client', config: { serverName: 'no spaces allowed', transport: 'stdio', command: 'x' } }]))
    const run = await runCli(['--config', broken, 'tools'])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^mcp__everything__echo$/m)
    expect(run.stderr).toMatch(/\[error\] loader: .*broken\.yml:\d+: entry "bad": config\.serverName: serverName "no spaces allowed" is invalid/)
  })

  it('each bad entry is one line naming the file, the line of the field, the entry and the field, with the fix', async () => {
    const bad = join(dir, 'bad-entries.yml')
    await writeFile(
      bad,
      [
        '- id: ghost',
        '  name: mcp-clinet',
        '  config: { serverName: ghost, transport: stdio, command: node }',
        '- id: typo',
        '  name: mcp-client',
        '  config:',
        '    serverName: typo',
        '    transport: stdio',
        '    command: node',
        '    transprt: stdio',
        '- id: port',
        '  name: mcp-client',
        '  config:',
        '    serverName: port',
        '    transport: stdio',
        '    command: node',
        '    env:',
        '      PORT: 3000',
        '',
      ].join('\n'),
    )
    const run = await runCli(['--config', bad, 'tools'])
    expect(run.code).toBe(1)
    expect(run.stderr.split('\n').filter((line) => line.includes('loader:'))).toEqual([
      `[error] loader: ${bad}:2: entry "ghost": name: unknown plugin "mcp-clinet": no such package is installed; did you mean "mcp-client"? (known here: @mcp-bridge/plugin, mcp-client; or write a path starting with ./)`,
      `[error] loader: ${bad}:10: entry "typo": config.transprt: unknown key "transprt": did you mean "transport"?`,
      `[error] loader: ${bad}:18: entry "port": config.env.PORT: expected string (got 3000): quote it: "3000"`,
    ])
  })
})

/**
 * A line-based MCP server whose tool texts carry what a terminal acts on: a tool name with a line
 * break and a colour that would print a forged log record (its schema gets it quarantined, and
 * the warning quotes it), a description that retitles the window, a result that recolours.
 */
const HOSTILE_NAME = 'bad\n[error] mcp:other: FORGED LOG LINE \u001b[31mred\u001b[0m'
const HOSTILE_DESCRIPTION = 'desc with escape \u001b]0;PWNED-TITLE\u0007 and \u001b[2K'
const hostileServer = `
  const tools = ${JSON.stringify([
    { name: HOSTILE_NAME, inputSchema: { type: 'string' } },
    { name: 'ok', description: HOSTILE_DESCRIPTION, inputSchema: { type: 'object' } },
  ])}
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
  require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line)
    // A legacy server answers the era probe (an unknown method before initialize) with an error.
    if (m.method === 'server/discover') return process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n')
    if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } } })
    if (m.method === 'tools/list') send({ id: m.id, result: { tools } })
    if (m.method === 'tools/call') send({ id: m.id, result: { content: [{ type: 'text', text: ${JSON.stringify('red \u001b[31malert\u0007')} }] } })
  })`

describe('mcp-bridge shows what a server says, never obeys it', () => {
  it('a forged log record stays one escaped line on stderr; descriptions and results print escaped; --json stays exact', async () => {
    const file = join(dir, 'hostile.yml')
    const entry = { serverName: 'hostile', transport: 'stdio', command: process.execPath, args: ['-e', hostileServer], env: { MCP_BRIDGE_TEST_RUN: TAG } }
    await writeFile(file, stringify([{ id: 'hostile', name: '@mcp-bridge/plugin', config: entry }]))
    const ACTING = /[\u001b\u0007]/ // eslint-disable-line no-control-regex -- finding them is the point

    const tools = await runCli(['--config', file, 'tools'])
    expect(tools.stdout).toContain('mcp__hostile__ok\n  desc with escape \\x1b]0;PWNED-TITLE\\x07 and \\x1b[2K\n')
    expect(tools.stderr).toMatch(/^\[warn\] mcp:hostile: tool "bad\\n\[error\] mcp:other: FORGED LOG LINE \\x1b\[31mred\\x1b\[0m" not registered: .+$/m)
    expect(tools.stderr).not.toMatch(/^\[error\] mcp:other/m)
    expect(tools.stdout + tools.stderr).not.toMatch(ACTING)

    const call = await runCli(['--config', file, 'call', 'mcp__hostile__ok'])
    expect(call.stdout).toContain('--- content (what the model sees) ---\nred \\x1b[31malert\\x07\n')
    expect(call.stdout + call.stderr).not.toMatch(ACTING)

    const json = await runCli(['--config', file, 'tools', '--json'])
    expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ name: 'mcp__hostile__ok', description: HOSTILE_DESCRIPTION }))
    expect(taggedPids(TAG)).toEqual([])
  })
})

describe('mcp-bridge without cordis installed', () => {
  // A copy of the real bin, dist and package.json (a link would resolve imports from the repository)
  // in a directory whose node_modules holds every dependency of the package but cordis, an
  // optional peer that npm does not install.
  let alone: string
  beforeAll(async () => {
    alone = await mkdtemp(join(tmpdir(), 'cli-no-cordis-'))
    const plugin = fileURLToPath(new URL('..', import.meta.url))
    const manifest = JSON.parse(readFileSync(join(plugin, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    for (const part of ['bin', 'dist', 'package.json']) await cp(join(plugin, part), join(alone, part), { recursive: true })
    await mkdir(join(alone, 'node_modules', '@mcp-bridge'), { recursive: true })
    await mkdir(join(alone, 'node_modules', '@modelcontextprotocol'), { recursive: true })
    for (const name of Object.keys(manifest.dependencies)) {
      const installed = [join(plugin, 'node_modules', name), join(plugin, '..', 'node_modules', name)].find((dir) => existsSync(dir))
      await symlink(installed!, join(alone, 'node_modules', name))
    }
    await writeFile(join(alone, 'cordis.yml'), 'plugins: []\n')
  })
  afterAll(() => rm(alone, { recursive: true, force: true }))

  const runAlone = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [join(alone, 'bin', 'mcp-bridge.js'), ...args], { cwd: alone }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    )

  it('says in one line that cordis is needed, and how to install it, once a command needs a host', async () => {
    const run = await runAlone(['--config', 'cordis.yml', 'tools'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('mcp-bridge: the CLI runs a Cordis host and needs cordis ^4.0.0-rc.10, which npm does not install with it: npm install cordis@4.0.0-rc.10\n')
  })

  it('still gives its help, its version and its usage errors', async () => {
    const help = await runAlone(['--help'])
    expect(help).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Usage: mcp-bridge/) })
    const version = await runAlone(['--version'])
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^mcp-bridge \d+\.\d+\.\d+/) })
    const wrong = await runAlone(['serve'])
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown command "serve"/) })
  })
})

describe('mcp-bridge usage errors exit 2 without starting anything', () => {
  it.each([
    [[], /missing command/],
    [['serve'], /unknown command "serve"/],
    [['tools', '--nope'], /unknown option --nope/],
    [['--config', '/nonexistent/cordis.yml', 'tools'], /the config file \/nonexistent\/cordis.yml does not exist/],
    [['call', 'mcp__everything__echo', '{not json'], /the arguments are not valid JSON/],
  ])('%j', async (args, message) => {
    const run = await runCli(args as string[])
    expect(run.code).toBe(2)
    // One line naming the reason, then the pointer to --help: never the whole usage.
    const lines = run.stderr.split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^mcp-bridge: /)
    expect(lines[0]).toMatch(message)
    expect(lines.slice(1)).toEqual(['run `mcp-bridge --help` for usage', ''])
    expect(run.stdout).toBe('')
  })

  it('--help prints the usage on stdout and exits 0', async () => {
    const run = await runCli(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: mcp-bridge \[--config FILE\] <command>/)
    expect(run.stdout).toMatch(/Exit codes: 0 success; 1 .*\n2 usage error/)
    expect(run.stderr).toBe('')
  })

  it('--version prints the version of its package.json on stdout and exits 0', async () => {
    const run = await runCli(['--version'])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toBe(`mcp-bridge ${(require('../package.json') as { version: string }).version}\n`)
  })
})

describe('mcp-bridge watch', () => {
  it('hot-reloads the file, reloads on SIGHUP, and stops cleanly on SIGTERM (exit 143)', async () => {
    const file = join(dir, 'watch.yml')
    await writeFile(file, stringify(servers()))
    const tag = TAG
    const child = spawn(process.execPath, [bin, '--config', file, 'watch'], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const stderr = new StderrLog(child)
    let seen = await stderr.until(/watching .*watch\.yml for changes/)
    expect(seen).toMatch(/\[info\] loader: loaded .*watch\.yml: 2 added/)
    // Each server leads its process group; the group's other member is its watchdog.
    const servers1 = taggedPids(tag).filter((pid) => pid !== child.pid && leadsItsGroup(pid))
    expect(servers1).toHaveLength(2)

    const reloaded = stderr.until(/reloaded .*watch\.yml/, seen.length)
    await writeFile(`${file}.tmp`, stringify(servers({ toolCallTimeoutMs: 30_000 })))
    await rename(`${file}.tmp`, file)
    seen = await reloaded
    expect(seen).toMatch(/updated "everything" \(changed: toolCallTimeoutMs\)/)
    expect(seen).toMatch(/reloaded .*watch\.yml: 0 added, 1 updated, 0 removed, 1 unchanged/)

    const hangup = stderr.until(/reloaded .*watch\.yml/, seen.length)
    child.kill('SIGHUP')
    seen = await hangup
    expect(seen).toMatch(/reload requested/)

    child.kill('SIGTERM')
    expect(await exited).toBe(143)
    expect(taggedPids(tag)).toEqual([])
  })
})
