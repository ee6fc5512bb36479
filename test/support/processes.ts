/**
 * Real processes for the tests that install packed tarballs into temp projects and run them
 * (test/package/, test/dsh/): each command runs in its own process group, never rejects, is
 * killed with its group on timeout, and reports everything a failure message needs.
 */
import { spawn } from 'node:child_process'
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'

export const REPO = fileURLToPath(new URL('../../', import.meta.url))

export interface RunResult {
  command: string
  cwd: string
  code: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  stdout: string
  stderr: string
  ms: number
}

/** Process groups of children still running: a suite's afterAll kills what a failed test left behind. */
export const running = new Set<number>()

/** Runs a real process in its own process group; never rejects. A timeout kills the whole group. */
export function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<RunResult> {
  const command = [file, ...args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ')
  const started = performance.now()
  return new Promise((done) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const pid = child.pid
    if (pid !== undefined) running.add(pid)
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(pid)
    }, options.timeoutMs)
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer)
      // Whatever the command left in its process group goes with it.
      killGroup(pid)
      if (pid !== undefined) running.delete(pid)
      done({ command, cwd: options.cwd, code, signal, timedOut, stdout, stderr, ms: Math.round(performance.now() - started) })
    }
    child.once('error', (error) => {
      stderr += `\n[spawn error] ${error.message}`
      finish(null, null)
    })
    child.once('close', finish)
  })
}

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

export const tail = (text: string, lines: number) => text.trimEnd().split('\n').slice(-lines).join('\n')

/** Everything a failure message needs: the command, where, how it ended, and the output's tail. */
export function explain(result: RunResult, note = ''): string {
  const ending = result.timedOut ? `was killed after a ${result.ms} ms timeout` : result.signal ? `died of ${result.signal}` : `exited with ${result.code}`
  return [
    `${note ? `${note}\n` : ''}\`${result.command}\` (cwd ${result.cwd}) ${ending} after ${result.ms} ms`,
    `--- stderr (last 40 lines) ---\n${tail(result.stderr, 40) || '(empty)'}`,
    `--- stdout (last 20 lines) ---\n${tail(result.stdout, 20) || '(empty)'}`,
  ].join('\n')
}

export function expectExit(result: RunResult, codes: readonly number[] = [0], note = ''): void {
  const message = explain(result, `expected exit code ${codes.join(' or ')}${note ? `; ${note}` : ''}`)
  if (codes.length === 1) expect(result.code, message).toBe(codes[0])
  else expect(codes, message).toContain(result.code)
}

/**
 * The environment of every child: npm's run-script variables (which point at this repository) and
 * Node's loader hooks are dropped, and PATH loses every node_modules directory, so nothing of the
 * repository leaks in. `node` on PATH is the Node under test, then the project's own bins.
 */
export function childEnv(nodeBinary: string, project?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^npm_/i.test(key) || /^VITEST/.test(key)) continue
    if (['INIT_CWD', 'NODE', 'NODE_OPTIONS', 'NODE_PATH', 'TSX_TSCONFIG_PATH'].includes(key)) continue
    env[key] = value
  }
  const path = (process.env.PATH ?? '').split(delimiter).filter((entry) => entry && !entry.split(sep).includes('node_modules') && !isInside(entry, REPO))
  env.PATH = [dirname(nodeBinary), ...(project ? [join(project, 'node_modules', '.bin')] : []), ...path].join(delimiter)
  return env
}

export const isInside = (path: string, dir: string) => {
  const rel = relative(dir, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}
