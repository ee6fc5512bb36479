/**
 * Help and version: a page per command, the bare --version and --help answered before the runners
 * load (cli/quick.ts, as the bin asks it) and the same as the full CLI, and a kit that cannot load
 * ending in one line and exit 2 rather than a stack trace and exit 1.
 */
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, USAGE, type Io } from '../src/cli.ts'
import { HELP_TOPICS, helpText } from '../src/cli/help.ts'
import { quickAnswer } from '../src/cli/quick.ts'

const PACKAGE = resolve(import.meta.dirname, '..')

async function stdoutOf(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: Io & { out: string; err: string } = { out: '', err: '', cwd: '/', stdout: (t) => void (io.out += t), stderr: (t) => void (io.err += t) }
  const code = await main(argv, io)
  return { code, out: io.out, err: io.err }
}

function runBin(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [bin, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr })
    })
  })
}

describe('help pages', () => {
  it('each command has its own page: its synopsis, its options and the run options, not the other commands\' options', () => {
    const server = helpText('server')
    expect(server).toMatch(/^Usage:\n {2}mcp-conformance server /)
    for (const option of ['--url', '--header', '--call', '--spec-version', '--timeout', '--baseline', '--write-baseline', '--annotations']) expect(server).toContain(option)
    for (const option of ['--scenario', '--driver', '--wire', '--shard']) expect(server).not.toContain(option)
    const client = helpText('client')
    for (const option of ['--scenario', '--driver', '--shard', '--transport', '--write-baseline']) expect(client).toContain(option)
    for (const option of ['--url', '--call', '--wire']) expect(client).not.toContain(option)
    expect(helpText('judge')).toContain('--wire FILE')
    expect(helpText('list')).toContain('mcp-conformance list')
    for (const topic of ['server', 'client', 'judge'] as const) expect(helpText(topic)).toContain('Exit codes:')
    expect(helpText()).toBe(USAGE)
  })

  it('`COMMAND --help` and `help COMMAND` print that page; --help alone the global one', async () => {
    for (const topic of HELP_TOPICS) {
      expect(await stdoutOf([topic, '--help'])).toEqual({ code: 0, out: helpText(topic), err: '' })
      expect(await stdoutOf(['help', topic])).toEqual({ code: 0, out: helpText(topic), err: '' })
    }
    expect((await stdoutOf(['--help'])).out).toBe(USAGE)
  })

  it('the quick answers are the full CLI\'s, for every command line they take; anything else is left to it', async () => {
    const shapes = [['--version'], ['--help'], ['-h'], ['help'], ...HELP_TOPICS.flatMap((t) => [[t, '--help'], [t, '-h'], ['help', t]])]
    for (const argv of shapes) {
      const quick = await quickAnswer(argv)
      expect(quick, argv.join(' ')).toBeDefined()
      expect(quick).toBe((await stdoutOf(argv)).out)
    }
    for (const argv of [[], ['server', '--version'], ['help', 'bogus'], ['bogus', '--help'], ['--version', '--nope'], ['list'], ['server', '--', 'x', '--help']]) expect(await quickAnswer(argv)).toBeUndefined()
  })
})

describe('the bin', () => {
  let dir: string
  let bin: string
  beforeAll(async () => {
    // The package with only the bin, package.json and the two modules --version needs: no
    // node_modules and no other module of dist. What --version would load besides fails here.
    dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-bare-'))
    await mkdir(join(dir, 'bin'))
    await mkdir(join(dir, 'dist', 'cli'), { recursive: true })
    await copyFile(join(PACKAGE, 'bin/mcp-conformance.js'), join(dir, 'bin/mcp-conformance.js'))
    await copyFile(join(PACKAGE, 'package.json'), join(dir, 'package.json'))
    for (const file of ['quick.js', 'tool.js']) await copyFile(join(PACKAGE, 'dist/cli', file), join(dir, 'dist/cli', file))
    bin = join(dir, 'bin/mcp-conformance.js')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('answers --version without loading anything but its version', async () => {
    const { version } = (await import('../package.json', { with: { type: 'json' } })).default
    expect(await runBin(bin, ['--version'])).toEqual({ code: 0, stdout: `mcp-conformance ${version}\n`, stderr: '' })
  })

  it('a kit that cannot load says so in one line and exits 2, for a run as for a help page', async () => {
    for (const args of [['server', '--', 'node', 'x.js'], ['server', '--help']]) {
      const ran = await runBin(bin, args)
      expect(ran.code).toBe(2)
      expect(ran.stdout).toBe('')
      expect(ran.stderr).toMatch(/^mcp-conformance: cannot load the kit \(Cannot find (module|package) .*\): install it again \(npm ci, or npm install @mcp-bridge\/conformance\)\n$/)
    }
  })

  it('the installed bin answers a command\'s help from its own page', async () => {
    const ran = await runBin(join(PACKAGE, 'bin/mcp-conformance.js'), ['server', '--help'])
    expect(ran).toEqual({ code: 0, stdout: helpText('server'), stderr: '' })
  })
})
