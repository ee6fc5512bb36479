/**
 * What a fixture loads to start: every spawned fixture pays for it. A behaviour given as --json
 * (the kit starts every stdio fixture so) loads no YAML parser and no HTTP, legacy SSE or OAuth
 * code; a behaviour file in YAML does load the parser, which shows the probe sees it. The probe is
 * a preload that writes, as the process exits, every module file in Node's module cache (CommonJS
 * and ES modules imported from CommonJS alike) and every ES module the loader hooks saw.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const CLI = resolve(import.meta.dirname, '../dist/cli.js')
const dir = mkdtempSync(join(tmpdir(), 'fixture-start-modules-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The preload: ES modules through a load hook, CommonJS ones from require.cache at exit. */
const PROBE = join(dir, 'probe.mjs')
writeFileSync(
  PROBE,
  `import { register, createRequire } from 'node:module'
import { appendFileSync } from 'node:fs'
const out = process.env.PROBE_FILE
register('data:text/javascript,' + encodeURIComponent(
  'import { appendFileSync } from "node:fs"; export async function load(url, ctx, next) { appendFileSync(' + JSON.stringify(out) + ', url + "\\\\n"); return next(url, ctx) }'))
process.on('exit', () => appendFileSync(out, Object.keys(createRequire(import.meta.url).cache).join('\\n') + '\\n'))
`,
)

/** Starts the fixture with these arguments, has it answer initialize, ends it; the modules it loaded. */
async function modulesOf(name: string, args: string[]): Promise<string[]> {
  const file = join(dir, `${name}.txt`)
  const child = spawn(process.execPath, ['--import', PROBE, CLI, ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, PROBE_FILE: file } })
  const answered = new Promise<void>((done) => child.stdout.on('data', () => done()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`)
  await answered
  child.stdin.end()
  await exited
  return readFileSync(file, 'utf8').split('\n').filter(Boolean)
}

const yaml = (modules: string[]) => modules.filter((m) => /[\\/]node_modules[\\/]yaml[\\/]/.test(m))
const transportsBeyondStdio = (modules: string[]) => modules.filter((m) => /fixtures-server[\\/]dist[\\/](http-server|http-handler|legacy-sse|oauth-server|oauth-assertion)\.js$/.test(m))

describe('a stdio fixture at start', () => {
  it('given --json, loads no YAML parser and no HTTP, SSE or OAuth code', async () => {
    const modules = await modulesOf('json', ['--json', JSON.stringify({ tools: [{ name: 'a' }] })])
    expect(modules.some((m) => m.endsWith('cli.js'))).toBe(true)
    expect(yaml(modules)).toEqual([])
    expect(transportsBeyondStdio(modules)).toEqual([])
  })

  it('given a YAML file, loads the parser (the probe sees it)', async () => {
    const file = join(dir, 'behaviour.yaml')
    writeFileSync(file, 'tools:\n  - name: a\n')
    const modules = await modulesOf('yaml', [file])
    expect(yaml(modules).length).toBeGreaterThan(0)
    expect(transportsBeyondStdio(modules)).toEqual([])
  })
})
