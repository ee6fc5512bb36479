// What run.mjs (server scenarios) and clients.mjs (client scenarios) share: where the pinned
// official suite is, how a child runs (bounded, output captured), and the frozen requirement sets.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const here = fileURLToPath(new URL('.', import.meta.url))
export const root = join(here, '..', '..')
export const REVISIONS = ['2025-11-25', '2026-07-28']
export const OFFICIAL_PACKAGE = '@modelcontextprotocol/conformance'
export const officialCli = join(here, 'node_modules', OFFICIAL_PACKAGE, 'dist', 'index.js')
/** A bound on one whole runner: the official suite's per-scenario timeout is 30 s, ours per request 10 s. */
const RUN_BOUND_MS = 15 * 60_000

/** Runs a command to its end (or the bound), output captured; never throws for a non-zero exit. */
export function run(command, args, { cwd = root, env = process.env } = {}) {
  return new Promise((resolve) => {
    // A process group of its own, so the bound takes the runner's children with it.
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }, RUN_BOUND_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: -1, stdout, stderr: `${stderr}${error.message}` })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? signal, stdout, stderr })
    })
  })
}

/**
 * The scenario names a revision scores for one side ('server' or 'client'), and those it runs but
 * never scores, from `list --requirements`.
 */
export async function requirementSet(node, revision, side) {
  const listed = await run(node, [officialCli, 'list', '--requirements', revision, `--${side}`])
  if (listed.code !== 0) throw new Error(`official list --requirements ${revision} exited ${listed.code}: ${listed.stderr.slice(0, 500)}`)
  const heading = side === 'server' ? /^Server scenarios/ : /^Client scenarios/
  const scored = []
  const unscored = []
  let into
  for (const line of listed.stdout.split('\n')) {
    if (heading.test(line)) into = scored
    else if (/^(Server|Client|Authorization)/.test(line)) into = undefined
    else if (/^Run and reported, but never scored/.test(line)) into = unscored
    const item = /^\s+- (\S+)(?: \[(\w+)\])?/.exec(line)
    if (item && into && (into === scored || item[2] === side)) into.push(item[1])
  }
  return { scored, unscored }
}
