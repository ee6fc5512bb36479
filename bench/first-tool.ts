/**
 * Start to the first tool registered, the plugin against the seed package it replaces
 * (`@deepseek-ai/dsh-mcp-client`), both on the pinned Node 22 (the seed requires it), each in fresh
 * processes: the import of the entry, then `ctx.plugin(entry, config)` until the plugin's first
 * `ctx.tools.register`, against a stdio fixture with one tool. Each side runs on its own host's
 * Cordis (the plugin on `cordis`, the seed on `@deepseek-ai/cordis`), loaded before the clock
 * starts, with the same minimal `tools` service: what is timed is the plugin's own start.
 *
 * The seed is taken from an installed harness stack: `BENCH_SEED_MODULES` (a node_modules
 * directory), else hosts/dsh/node_modules (`npm ci --prefix hosts/dsh`), else clients/node_modules
 * (`npm run clients`). Node 22 comes from scripts/node22.mjs, which installs it on first use.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { FIRST_TOOL_CHILD } from './first-tool-child.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PLUGIN_ENTRY = join(ROOT, 'plugin/dist/index.js')
const SEED = '@deepseek-ai/dsh-mcp-client'
const SEED_CORDIS = '@deepseek-ai/cordis'
const CHILD_TIMEOUT_MS = 60_000
/** Installing Node 22 is a download of about 30 MB; a run that cannot get it says so. */
const NODE22_TIMEOUT_MS = 5 * 60_000

export interface StartSample {
  imported: number
  firstTool: number
}

export type Side = 'bridge' | 'seed'

interface SideSetup {
  cwd: string
  cordis: string
  entry: string
}

/** Where to look for the seed: `BENCH_SEED_MODULES`, then the harness stack's install, then the client drivers'. */
export function seedCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  return [env.BENCH_SEED_MODULES, join(ROOT, 'hosts/dsh/node_modules'), join(ROOT, 'clients/node_modules')].filter((dir): dir is string => !!dir)
}

/** Where the seed is installed (the directory holding its node_modules), or why it cannot be used. */
export function seedInstall(candidates: readonly string[] = seedCandidates()): { dir: string } | { missing: string } {
  for (const modules of candidates) {
    if (existsSync(join(modules, SEED, 'package.json')) && existsSync(join(modules, SEED_CORDIS, 'package.json'))) return { dir: dirname(modules) }
  }
  return { missing: `the seed (${SEED} with ${SEED_CORDIS}) is not installed: run \`npm ci --prefix hosts/dsh\` or set BENCH_SEED_MODULES to a node_modules that has it (looked in ${candidates.join(', ')})` }
}

/** The pinned Node 22's path (installed on first use by scripts/node22.mjs). */
export function node22(): string {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/node22.mjs')], { encoding: 'utf8', timeout: NODE22_TIMEOUT_MS, killSignal: 'SIGKILL' })
  const path = result.stdout?.trim()
  if (result.status !== 0 || !path) throw new Error(`Node 22 is not available: ${(result.error?.message ?? result.stderr ?? '').trim().slice(0, 300) || `scripts/node22.mjs exited ${result.status}`}`)
  return path
}

/**
 * `reps` samples per side after one unmeasured round (the OS file cache), the side that goes
 * first flipping every round. Throws, with what to do, when Node 22 or the seed is missing.
 */
export function measureFirstTool(reps: number): { node: string; samples: Record<Side, StartSample[]> } {
  if (!existsSync(PLUGIN_ENTRY)) throw new Error(`${PLUGIN_ENTRY} is missing: run \`npm run build\``)
  const seed = seedInstall()
  if ('missing' in seed) throw new Error(seed.missing)
  const node = node22()
  const sides: Record<Side, SideSetup> = {
    bridge: { cwd: join(ROOT, 'plugin'), cordis: 'cordis', entry: pathToFileURL(PLUGIN_ENTRY).href },
    seed: { cwd: seed.dir, cordis: SEED_CORDIS, entry: SEED },
  }
  const fixture = JSON.stringify(fixtureCommand({ tools: [{ name: 'echo' }] }))
  const samples: Record<Side, StartSample[]> = { bridge: [], seed: [] }
  for (let round = 0; round <= reps; round++) {
    const order: Side[] = round % 2 ? ['seed', 'bridge'] : ['bridge', 'seed']
    for (const side of order) {
      const sample = startOnce(node, sides[side], fixture, side)
      if (round > 0) samples[side].push(sample)
    }
  }
  return { node, samples }
}

function startOnce(node: string, side: SideSetup, fixture: string, label: Side): StartSample {
  const result = spawnSync(node, ['--input-type=module', '-e', FIRST_TOOL_CHILD], {
    cwd: side.cwd,
    env: { ...process.env, CORDIS: side.cordis, ENTRY: side.entry, FIXTURE: fixture },
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  })
  const line = result.stdout?.split('\n').find((l) => l.startsWith('{'))
  if (result.status !== 0 || !line) {
    const why = result.error?.message ?? (result.signal ? `signal ${result.signal}` : `exit ${result.status}`)
    throw new Error(`${label}: first-tool child failed (${why}): ${(result.stderr ?? '').trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`)
  }
  return JSON.parse(line) as StartSample
}
