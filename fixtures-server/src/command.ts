import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { signalGroup, spawnGroup } from '@mcp-bridge/process'
import { fileURLToPath } from 'node:url'
import type { BehaviourInput } from './schema.ts'

export interface FixtureCommand {
  command: string
  args: string[]
}

/**
 * The argv that runs a fixture: `node <dist/cli.js> <file> --transport <t>`. Node itself, never npx
 * (about a second slower), and always the built CLI, also when this module runs from its sources
 * (tests): a child compiled on every start costs about half a second more. A behaviour object
 * travels as `--json`, so a scenario's `server:` section needs no temp file.
 */
export function fixtureCommand(source: string | BehaviourInput, options: { transport?: 'stdio' | 'http' } = {}): FixtureCommand {
  const input = typeof source === 'string' ? [resolve(source)] : ['--json', JSON.stringify(source)]
  return { command: process.execPath, args: [builtCli(), ...input, '--transport', options.transport ?? 'stdio'] }
}

/** dist/cli.js beside this module when it is built, or the package's dist/ when it runs from src/. */
function builtCli(): string {
  const here = import.meta.url
  const cli = fileURLToPath(new URL(here.endsWith('.ts') ? '../dist/cli.js' : './cli.js', here))
  if (!existsSync(cli)) throw new Error(`the fixture CLI is not built (${cli} is missing): run \`npm run build\``)
  return cli
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
  // Its own process group with a watchdog: the fixture dies with whoever started it, even SIGKILLed.
  const { child } = spawnGroup(command, args, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'inherit'], graceMs: 500 })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  )
  const close = async (graceMs = 2000) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.stdin?.end()
    const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL') || child.kill('SIGKILL'), graceMs)
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
