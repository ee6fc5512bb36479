#!/usr/bin/env node
/**
 * The kit of the repository's action.yml, from the action's own checkout ($GITHUB_ACTION_PATH):
 * what the workflow names by `uses: owner/repo@ref` is what runs, and no package name of ours is
 * ever resolved on a registry (a name anyone can register would run in every workflow using the
 * action). Plain JavaScript without dependencies: it runs before anything is installed.
 *
 *   kit.mjs plan     step outputs: mode (checkout, or npx when the version input names a
 *                    published version), key (the cache key: the checkout's content, not its ref)
 *   kit.mjs install  npm ci of the conformance workspace from the committed lockfile, the
 *                    compiler the lockfile pins, one build; skipped when the build of this key is
 *                    already there (restored from the cache). Always exits 0: a failure becomes
 *                    the step outputs ok=false and error=<one line>, which the run step reports
 *                    as an annotation, a summary and outputs with exit 2.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { oneLine, setOutputs } from './github.mjs'

/** The checkout: where the runner put the action, else the checkout this file is conformance/action/kit.mjs of. */
export const ROOT = process.env.GITHUB_ACTION_PATH || fileURLToPath(new URL('../..', import.meta.url))
/** Written after a successful install, holding its key: a cache restore brings it along. */
export const MARKER = join(ROOT, '.mcp-conformance-kit', 'installed')
/** The kit's entry point in the checkout, once built. */
export const KIT_BIN = join(ROOT, 'conformance', 'bin', 'mcp-conformance.js')

/** What the build and the run read: the key changes when any of it does, whatever the ref is called. */
const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.build.json', 'scripts/copy-scenarios.mjs', 'scenarios', 'process', 'plugin', 'fixtures-server', 'conformance']
/** Written by the install or irrelevant to it. conformance/scenarios is the build's copy of scenarios/. */
const SKIP = new Set(['node_modules', 'dist', 'test', '.git', 'conformance/scenarios'])

function files(path, out) {
  const info = statSync(path, { throwIfNoEntry: false })
  if (!info) return out
  if (!info.isDirectory()) return out.push(path), out
  for (const name of readdirSync(path).sort()) {
    if (SKIP.has(name) || SKIP.has(relative(ROOT, join(path, name)))) continue
    files(join(path, name), out)
  }
  return out
}

/** The cache key: the platform, Node's major version and a hash of every source file of the checkout. */
export function cacheKey(env = process.env) {
  const hash = createHash('sha256')
  for (const file of SOURCES.flatMap((source) => files(join(ROOT, source), []))) {
    hash.update(`${relative(ROOT, file)}\0`).update(readFileSync(file)).update('\0')
  }
  const platform = `${env.RUNNER_OS ?? process.platform}-${env.RUNNER_ARCH ?? process.arch}`
  return `mcp-conformance-kit-${platform}-node${process.versions.node.split('.')[0]}-${hash.digest('hex').slice(0, 32)}`
}

/** The version input: empty for the checkout, or one exact published version (a range or a tag could move). */
export function modeOf(version) {
  return version.trim() ? 'npx' : 'checkout'
}

function plan() {
  const mode = modeOf(process.env.INPUT_VERSION ?? '')
  setOutputs({ mode, key: mode === 'checkout' ? cacheKey() : '' })
}

/** The exact versions the lockfile pins for what the build alone needs (the root's devDependencies). */
function buildTools() {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'))
  return ['typescript', '@types/node'].map((name) => {
    const version = lock.packages?.[`node_modules/${name}`]?.version
    if (!version) throw new Error(`package-lock.json pins no ${name}`)
    return `${name}@${version}`
  })
}

/** Runs npm in the checkout with the step's output as its own; the reason of a failure in one line. */
function npm(args) {
  process.stdout.write(`::group::npm ${args.join(' ')}\n`)
  const result = spawnSync('npm', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  process.stderr.write(result.stderr ?? '')
  process.stdout.write('::endgroup::\n')
  if (result.error) throw new Error(`cannot start npm: ${result.error.message}`)
  if (result.status !== 0) {
    const said = (result.stderr ?? '').split('\n').filter((line) => /^npm (error|ERR!)/.test(line)).slice(0, 3).join(' ')
    throw new Error(`npm ${args.slice(0, 2).join(' ')} exited ${result.status ?? result.signal}${said ? `: ${said}` : ''}`)
  }
}

function install() {
  const key = cacheKey()
  if (existsSync(MARKER) && readFileSync(MARKER, 'utf8').trim() === key && existsSync(join(ROOT, 'conformance', 'dist', 'cli.js'))) {
    process.stderr.write(`mcp-conformance action: the kit of this checkout is already built (${key})\n`)
    return setOutputs({ ok: 'true', installed: 'cached' })
  }
  const started = Date.now()
  // Only the conformance workspace and the workspaces it depends on, scripts off: the root's
  // devDependencies (test runners, browsers, mutation testing) are ten times the size.
  npm(['ci', '--workspace', 'conformance', '--ignore-scripts', '--no-audit', '--no-fund'])
  // The compiler and Node's types at the lockfile's versions, without touching package.json or the lockfile.
  npm(['install', '--no-save', '--workspace', 'conformance', '--ignore-scripts', '--no-audit', '--no-fund', ...buildTools()])
  npm(['run', 'build'])
  if (!existsSync(join(ROOT, 'conformance', 'dist', 'cli.js'))) throw new Error('the build wrote no conformance/dist/cli.js')
  mkdirSync(join(MARKER, '..'), { recursive: true })
  writeFileSync(MARKER, `${key}\n`)
  process.stderr.write(`mcp-conformance action: installed and built the kit in ${Math.round((Date.now() - started) / 1000)} s (${key})\n`)
  setOutputs({ ok: 'true', installed: 'built' })
}

const step = process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href ? process.argv[2] : undefined
if (step === 'plan') plan()
else if (step === 'install') {
  try {
    install()
  } catch (error) {
    // Not this step's exit: the run step reports it with the summary and the outputs.
    const reason = oneLine(error instanceof Error ? error.message : String(error), 500)
    process.stderr.write(`mcp-conformance action: cannot install the kit: ${reason}\n`)
    setOutputs({ ok: 'false', error: reason })
  }
} else if (step !== undefined) {
  process.stderr.write(`kit.mjs: unknown step ${JSON.stringify(step)} (plan or install)\n`)
  process.exitCode = 2
}
