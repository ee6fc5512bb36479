import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'

export interface Owner {
  child: ChildProcess
  pid: number
  stdout: string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves with the first stdout line that parses as JSON. */
  ready: Promise<{ server: number; tempDir: string }>
}

const script = fileURLToPath(new URL('./owner.mjs', import.meta.url))

/** A test that fails before it ends its owner must not leave it running. */
const running = new Set<ChildProcess>()
afterEach(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  running.clear()
})

/** Starts support/owner.mjs in its own process group (so a test can signal the group, as Ctrl-C does). */
export function startOwner(env: Record<string, string>): Owner {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  // Read, so that the pipe never fills; an uncaught exception's trace is expected here, not shown.
  child.stderr!.resume()
  running.add(child)
  const owner: Owner = {
    child,
    pid: child.pid!,
    stdout: '',
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    ready: new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        owner.stdout += chunk.toString()
        const line = owner.stdout.split('\n').find((text) => text.startsWith('{'))
        if (line) resolve(JSON.parse(line) as { server: number; tempDir: string })
      })
      child.once('exit', (code) => reject(new Error(`the owner exited with ${code} before it was ready`)))
    }),
  }
  return owner
}
