// What a table row was judged with: when, by which kit (version, git commit, whether the verdict
// code differed from that commit) and the verdict digest of scripts/verdict-digest.mjs. Read once
// before a run starts, so a row names the code that judged it even if the tree changes meanwhile.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { REPO_ROOT, verdictDigest } from './verdict-digest.mjs'

/** @returns {{ ranAt: string, commit: string, dirty: boolean, kit: string, digest: string }} */
export function provenance(table, root = REPO_ROOT) {
  const { digest, files } = verdictDigest(table, root)
  const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' })
  const head = git('rev-parse', '--short=12', 'HEAD')
  // A file that decides verdicts differs from the commit (or is not in it): the commit alone does not name the code.
  const status = git('status', '--porcelain', '--', ...files)
  const kit = JSON.parse(readFileSync(join(root, 'conformance/package.json'), 'utf8')).version
  return {
    ranAt: new Date().toISOString().slice(0, 16).replace('T', ' '),
    commit: head.status === 0 ? head.stdout.trim() : 'unknown (no git)',
    dirty: status.status !== 0 || status.stdout.trim() !== '',
    kit,
    digest,
  }
}

/**
 * `name@version` of a package as Node would load it from `fromDir`: the nearest node_modules/<name>
 * up the tree (read directly, since a package's exports may hide its package.json).
 */
export function installedVersion(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json')
    if (existsSync(file)) return `${name}@${JSON.parse(readFileSync(file, 'utf8')).version}`
    if (dirname(dir) === dir) return `${name}@(not installed)`
  }
}

/** The package's directory as Node would load it from `fromDir`, or undefined. */
export function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/** The MCP SDK packages a client may load: the 1.x SDK, or the 2.x split into client and core. */
const SDKS = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/client', '@modelcontextprotocol/core']

/**
 * The package and each MCP SDK package it depends on (optional dependencies included), as
 * installed for it: the versions a row judged, which a lockfile alone does not show (a client may
 * carry its own nested SDK).
 */
export function packagesOf(name, fromDir) {
  const dir = packageDir(name, fromDir)
  if (!dir) return [`${name}@(not installed)`]
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const declared = { ...manifest.optionalDependencies, ...manifest.peerDependencies, ...manifest.dependencies }
  const sdks = SDKS.filter((sdk) => sdk !== name && declared[sdk] !== undefined)
  return [`${name}@${manifest.version}`, ...sdks.map((sdk) => installedVersion(sdk, dir))]
}
