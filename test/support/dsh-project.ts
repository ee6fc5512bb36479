/**
 * A temp project with the DeepSeek harness stack of hosts/dsh/ installed the way an operator would
 * install it: `npm ci` from its own lockfile, then the packed workspaces, all under the pinned
 * Node 22 (the harness packages declare engines >= 22). Used by test/dsh/*.test.ts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childEnv, explain, isInside, REPO, run, type RunResult } from './processes.ts'

export const HOST_DIR = join(REPO, 'hosts/dsh')

export interface DshProject {
  root: string
  /** The installed copy of hosts/dsh/. */
  project: string
  node22: string
  /** Every step's duration, for the test to print. */
  timings: Array<{ what: string; ms: number }>
  /** The environment a child of the project runs with: Node 22 first on PATH, nothing of the repository. */
  env(): NodeJS.ProcessEnv
  remove(): void
}

/** Packs `workspaces` (their dist/ must be built) and installs them beside the pinned harness stack. */
export async function installDshProject(requested: string[]): Promise<DshProject> {
  // Every workspace depends on @mcp-bridge/process, which the registry does not have: its tarball comes along.
  const workspaces = requested.includes('process') ? requested : ['process', ...requested]
  const missing = workspaces.filter((dir) => !existsSync(join(REPO, dir, 'dist/index.js')))
  if (missing.length) throw new Error(`not built: ${missing.join(', ')}: run \`npm run build\` first (\`npm test\` does it in its pretest script)`)
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-bridge-dsh-')))
  if (isInside(root, REPO)) throw new Error(`the OS temp directory ${root} is inside the repository; set TMPDIR elsewhere`)
  const timings: DshProject['timings'] = []
  const timed = (what: string, result: RunResult) => (timings.push({ what, ms: result.ms }), result)
  const packDir = join(root, 'tarballs')
  const project = join(root, 'project')
  mkdirSync(packDir)
  // The pinned host stack, its lockfile and the host scripts; nothing else of the repository.
  cpSync(HOST_DIR, project, { recursive: true, filter: (source) => !source.includes('node_modules') })

  const systemEnv = childEnv(process.execPath)
  const [packed, node22] = await Promise.all([
    run('npm', ['pack', ...workspaces.flatMap((dir) => ['--workspace', dir]), '--json', '--pack-destination', packDir], { cwd: REPO, env: systemEnv, timeoutMs: 120_000 }),
    run(process.execPath, [join(REPO, 'scripts/node22.mjs')], { cwd: REPO, env: systemEnv, timeoutMs: 540_000 }),
  ])
  timed(`npm pack ${workspaces.join(' ')}`, packed)
  timed('scripts/node22.mjs (cached after the first run)', node22)
  if (packed.code !== 0) throw new Error(explain(packed, 'npm pack failed'))
  if (node22.code !== 0) throw new Error(explain(node22, 'scripts/node22.mjs could not provide a Node 22 binary'))
  const binary = node22.stdout.trim()
  const tarballs = (JSON.parse(packed.stdout) as Array<{ filename: string }>).map((entry) => join(packDir, entry.filename))

  const env = () => childEnv(binary, project)
  const ci = timed('npm ci (hosts/dsh lockfile, prefer-offline)', await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, env: env(), timeoutMs: 540_000 }))
  if (ci.code !== 0) throw new Error(explain(ci, 'npm ci of hosts/dsh failed'))
  const install = timed(
    `npm install --no-save (${tarballs.length} tarball${tarballs.length > 1 ? 's' : ''})`,
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], { cwd: project, env: env(), timeoutMs: 300_000 }),
  )
  if (install.code !== 0) throw new Error(explain(install, 'npm install of the tarballs failed'))
  return { root, project, node22: binary, timings, env, remove: () => rmSync(root, { recursive: true, force: true }) }
}
