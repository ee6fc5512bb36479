/**
 * Runs one measurement in a node child pinned to a single CPU with `taskset`, together with every
 * process it starts. A stdio round trip between two processes on different cores may wait for the
 * other core to wake up, and on a virtual machine that wake-up is slow and comes and goes with the
 * scheduler's placement: measured on the 2-core bench machine, a stdio round trip took 40-85 µs
 * or 150-260 µs for whole batches. On one core the round trip is the work both processes do
 * plus two context switches, so the ratio measures the client's cost and not where it was placed.
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpus } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ENTRY = fileURLToPath(new URL('./pinned-entry.ts', import.meta.url))
/** Marks the result line in the child's stdout. */
export const RESULT_MARK = 'pinned-result '

/** The CPU to pin to (the last one), or undefined where `taskset` cannot pin (not Linux, not installed). */
export function pinnableCpu(): number | undefined {
  if (process.platform !== 'linux') return undefined
  const cpu = cpus().length - 1
  const probe = spawnSync('taskset', ['-c', String(cpu), 'true'], { stdio: 'ignore', timeout: 5_000 })
  return probe.status === 0 ? cpu : undefined
}

/**
 * Calls `exportName(...args)` from `moduleFile` in a child pinned to `cpu` and resolves with its
 * JSON result; rejects when the child fails or outlives `timeoutMs` (then it is killed).
 */
export function runPinned<T>(cpu: number, moduleFile: string, exportName: string, args: unknown[], timeoutMs: number): Promise<T> {
  const argv = ['-c', String(cpu), process.execPath, ...process.execArgv, ENTRY, pathToFileURL(moduleFile).href, exportName, JSON.stringify(args)]
  const child = spawn('taskset', argv, { stdio: ['ignore', 'pipe', 'inherit'] })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK))
      if (code === 0 && line) {
        try {
          resolve(JSON.parse(line.slice(RESULT_MARK.length)) as T)
        } catch (error) {
          reject(new Error(`pinned ${exportName}: its result is not JSON (${line.length} characters): ${String(error)}`))
        }
      } else reject(new Error(`pinned ${exportName} ended with ${signal ? `signal ${signal}` : `code ${code}`}${line ? '' : ', no result'}`))
    })
  })
}
