/**
 * A fresh project with the packed workspaces installed, for package tests that need only the
 * install (package.test.ts keeps its own, with timings and Node lines): `npm pack --workspaces`
 * from the built dist/, then `npm install` of every tarball and the named packages at the exact
 * versions the root package.json pins, in a temp directory outside the repository.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childEnv, explain, isInside, REPO, run } from '../support/processes.ts'

export interface PackedProject {
  root: string
  project: string
  /** The environment of a child run in the project: its bins and the system Node on PATH, nothing of the repository. */
  env: NodeJS.ProcessEnv
  remove(): void
}

/** The exact version the root package.json pins for `name`; throws naming the fix if it is not exact. */
export function pinned(name: string): string {
  const dev = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies
  const version = dev[name]
  if (!version || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) throw new Error(`the root package.json must pin ${name} to an exact version (found ${version})`)
  return version
}

export async function packedProject(prefix: string, pinnedPackages: readonly string[]): Promise<PackedProject> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  const remove = () => rmSync(root, { recursive: true, force: true })
  try {
    if (isInside(root, REPO)) throw new Error(`the OS temp directory ${root} is inside the repository; set TMPDIR elsewhere`)
    const packDir = join(root, 'tarballs')
    const project = join(root, 'project')
    mkdirSync(packDir)
    mkdirSync(project)
    const systemEnv = childEnv(process.execPath)
    const packed = await run('npm', ['pack', '--workspaces', '--json', '--pack-destination', packDir], { cwd: REPO, env: systemEnv, timeoutMs: 120_000 })
    if (packed.code !== 0) throw new Error(explain(packed, 'npm pack failed (run `npm run build` first)'))
    const tarballs = (JSON.parse(packed.stdout) as Array<{ filename: string }>).map((entry) => join(packDir, entry.filename))
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `${prefix.replace(/-$/, '')}-project`, private: true, type: 'module' }, null, 2) + '\n')
    const install = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-exact', ...tarballs, ...pinnedPackages.map((name) => `${name}@${pinned(name)}`)],
      { cwd: project, env: systemEnv, timeoutMs: 540_000 },
    )
    if (install.code !== 0) throw new Error(explain(install, 'npm install of the tarballs failed'))
    return { root, project, env: childEnv(process.execPath, project), remove }
  } catch (error) {
    remove()
    throw error
  }
}
