/** The bin shim end to end, as a user runs it: list, and a client run that writes its reports. */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listScenarios } from '../src/client/index.ts'
import type { RunReport } from '../src/model.ts'

const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')

function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, timeout: 110_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      done({ code, stdout, stderr })
    })
  })
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => done(port))
    })
  })
}

describe('bin/mcp-conformance.js', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-bin-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('list prints the scenarios as id<TAB>title on stdout', async () => {
    const { code, stdout } = await run(['list'], dir)
    expect(code).toBe(0)
    const expected = (await listScenarios()).map((s) => `${s.id}\t${s.title}\n`).join('')
    expect(stdout).toBe(expected)
  })

  it('a client run of one scenario writes the reports and exits with the code results.json records', async () => {
    const first = (await listScenarios())[0]
    expect(first).toBeDefined()
    const args = ['client', '--transport', 'stdio', '--report-dir', 'out', '--scenario', first!.id]
    const { code, stdout, stderr } = await run(args, dir)
    expect(stdout).toBe('')
    const report = JSON.parse(await readFile(join(dir, 'out', 'results.json'), 'utf8')) as RunReport
    // Our plugin passes every scenario, so the run must end 0 and say so.
    expect(code).toBe(0)
    expect(report.exitCode).toBe(0)
    expect(stderr).toContain('Exit code 0')
    expect(report.suites.every((s) => s.kind === 'client')).toBe(true)
    expect(report.suites.map((s) => `${s.id} ${s.transport}`)).toEqual([`${first!.id} stdio`])
  })

  it('a usage error exits 2 before anything runs: one line of reason, then the pointer to --help', async () => {
    expect(await run(['server', '--url', 'not-a-url'], dir)).toEqual({ code: 2, stdout: '', stderr: 'mcp-conformance: --url "not-a-url" is not an http(s) URL\nrun `mcp-conformance --help` for usage\n' })
    // The default run accepts its own options: the complaint is about the bad value, not --report-dir.
    const bad = await run(['--report-dir', 'out', '--transport', 'ws'], dir)
    expect(bad).toMatchObject({ code: 2, stderr: 'mcp-conformance: --transport must be stdio, http or all, not "ws"\nrun `mcp-conformance --help` for usage\n' })
  })

  it('what would fail only after the run is refused before it: exit 2, one line, no report', async () => {
    const typo = await run(['client', '--report-dir', 'pre', '--scenario', 'dotted-name'], dir)
    expect(typo).toEqual({ code: 2, stdout: '', stderr: 'mcp-conformance: no scenario with id "dotted-name"; did you mean "dotted-names"? (see: mcp-conformance list)\n' })
    await expect(readFile(join(dir, 'pre', 'results.json'), 'utf8')).rejects.toThrow(/ENOENT/)
    const file = join(dir, 'a-file')
    await writeFile(file, 'not a directory')
    const reports = await run(['client', '--report-dir', join(file, 'sub'), '--scenario', 'dotted-names'], dir)
    expect(reports).toMatchObject({ code: 2, stderr: `mcp-conformance: cannot write reports to ${join(file, 'sub')}: a part of the path is a file, not a directory (choose another --report-dir)\n` })
    const wire = await run(['judge', '--report-dir', 'pre', '--wire', 'nope.jsonl'], dir)
    expect(wire).toMatchObject({ code: 2, stderr: expect.stringMatching(/^mcp-conformance: --wire .*nope\.jsonl does not exist: start the fixture with --wire/) })
    const snapshots = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(process.execPath, [BIN, 'client', '--report-dir', 'pre', '--scenario', 'dotted-names', '--update-snapshots'], { cwd: dir, env: { ...process.env, CI: 'true' } }, (error, _stdout, stderr) =>
        done({ code: error ? Number(error.code) : 0, stderr }),
      ),
    )
    expect(snapshots).toEqual({ code: 2, stderr: 'mcp-conformance: --update-snapshots is refused when CI=true: update snapshots locally and commit them\n' })
  })

  it('--help and --version answer on stdout with exit 0', async () => {
    const help = await run(['--help'], dir)
    expect(help).toMatchObject({ code: 0, stderr: '' })
    expect(help.stdout).toMatch(/^Usage:\n {2}mcp-conformance \[run options\]/)
    const { version } = JSON.parse(await readFile(resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string }
    expect(await run(['--version'], dir)).toEqual({ code: 0, stdout: `mcp-conformance ${version}\n`, stderr: '' })
  })

  it('a server URL with credentials is never printed: not in the header line, the summary or the reports', async () => {
    // A port that was just free refuses the connection at once: nothing can be judged, so the run
    // ends as a harness error (exit 2) that names initialize.
    const url = `http://kit-user:Pa55-canary-word@127.0.0.1:${await freePort()}/mcp?token=tok-canary-123`
    const { code, stdout, stderr } = await run(['server', '--report-dir', 'leak', '--startup-timeout', '2000', '--url', url], dir)
    expect(code).toBe(2)
    expect(stderr).toContain('lifecycle/initialize')
    expect(stderr).toContain('server checks against http://')
    const reports = await Promise.all(['results.json', 'junit.xml', 'report.html'].map((file) => readFile(join(dir, 'leak', file), 'utf8')))
    for (const text of [stdout, stderr, ...reports]) {
      expect(text).not.toContain('Pa55-canary-word')
      expect(text).not.toContain('tok-canary-123')
    }
  })
})
