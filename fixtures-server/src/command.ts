import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { BehaviourInput } from './schema.ts'

export interface FixtureCommand {
  command: string
  args: string[]
}

/**
 * The argv that runs a fixture: `node --import <tsx/esm> src/cli.ts <file> --transport <t>`.
 * Node itself, never npx (about a second slower); tsx's ESM-only hook (a fifth faster to start
 * than the full `tsx` loader, and the fixture is all ESM), by absolute URL so any cwd works. A
 * behaviour object travels as `--json`, so a scenario's `server:` section needs no temp file.
 */
export function fixtureCommand(source: string | BehaviourInput, options: { transport?: 'stdio' | 'http' } = {}): FixtureCommand {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href
  const input = typeof source === 'string' ? [resolve(source)] : ['--json', JSON.stringify(source)]
  return { command: process.execPath, args: ['--import', tsx, cli, ...input, '--transport', options.transport ?? 'stdio'] }
}

export interface SpawnedHttpFixture {
  url: string
  pid: number
  child: ChildProcess
  /** Settles when the process ends (by script, or after close()). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Closes stdin (the fixture exits by itself), then SIGKILL if it has not within `graceMs`. */
  close(graceMs?: number): Promise<void>
}

/**
 * Starts an HTTP fixture in its own process and waits for its readiness line. Rejects with the
 * exit code when the process ends first (e.g. a behaviour that crashes at start).
 */
export function spawnHttpFixture(
  source: string | BehaviourInput,
  options: { env?: NodeJS.ProcessEnv; port?: number; readyTimeoutMs?: number } = {},
): Promise<SpawnedHttpFixture> {
  const { command, args } = fixtureCommand(source, { transport: 'http' })
  if (options.port !== undefined) args.push('--port', String(options.port))
  const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'inherit'] })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  )
  const close = async (graceMs = 2000) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.stdin?.end()
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolvePromise, reject) => {
    // A fixture that never prints its readiness line must not hang the caller or outlive it.
    const timeoutMs = options.readyTimeoutMs ?? 30_000
    const timer = setTimeout(() => {
      void close(0)
      reject(new Error(`fixture printed no readiness line within ${timeoutMs} ms`))
    }, timeoutMs)
    void exited.finally(() => clearTimeout(timer))
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => {
      try {
        const ready = JSON.parse(line) as { ready?: boolean; url?: string }
        if (ready.ready !== true || typeof ready.url !== 'string') throw new Error(`not a readiness line: ${line}`)
        clearTimeout(timer)
        resolvePromise({ url: ready.url, pid: child.pid!, child, exited, close })
      } catch (error) {
        void close(0)
        reject(error)
      }
    })
    void exited.then(({ code, signal }) => reject(new Error(`fixture exited before it was ready (code ${code}, signal ${signal})`)))
    child.once('error', reject)
  })
}
