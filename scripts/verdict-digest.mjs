// The one list of what decides the verdicts of each published table, and its digest. A table row
// records the digest of the code that judged it; conformance/test/tables.test.ts recomputes it, so
// a change to anything below makes the table stale until it is regenerated.
//
// An entry is a file, `dir/**` (every file below dir) or `dir/*.ext` (the files of dir with that
// extension), relative to the repository root. The lists err on the side of too much: a needless
// regeneration costs time, a verdict published from code that no longer decides it costs trust.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * What judges a client: the modules that turn what a client did into verdicts (its rules and their
 * sentences, the verdict rule, expectations, invariants, timing bounds), the revisions the kit
 * knows, the scenarios, the drivers and the pins. Not the runner's plumbing, the fixtures' engine
 * or the bridge's snapshots, which a client's verdict does not read: a change there that moves a
 * verdict changes a scenario or one of these modules too.
 */
const CLIENTS = [
  ...['verdicts', 'applicability', 'rules', 'expectations', 'invariants', 'http-invariants', 'ping', 'cancellation', 'task-negotiation', 'timing', 'durations', 'processes', 'judge'].map((name) => `conformance/src/client/${name}.ts`),
  'conformance/src/server/spec.ts',
  'scenarios/*.yaml',
  'conformance/drivers/**',
  'clients/drivers/**',
  'clients/package.json',
]

/** What judges a server: every server check (registry, probes, evaluation, wire), the set-ups, the pins. */
const SERVERS = ['conformance/src/server/**', 'compat/servers.mjs', 'compat/package.json']

/** Per published table: its file, the command that regenerates it, and what decides its verdicts. */
export const TABLES = {
  clients: { file: 'conformance/docs/CLIENTS.md', command: 'npm run clients', sources: CLIENTS },
  servers: { file: 'docs/COMPATIBILITY.md', command: 'npm run matrix', sources: SERVERS },
}

/** The files an entry names, sorted, as repository-relative paths with forward slashes. */
export function expand(entry, root = REPO_ROOT) {
  const slash = (path) => path.split(sep).join('/')
  const missingDir = (dir) => new Error(`verdict-digest.mjs: ${entry} names no directory ${dir}; update the list in scripts/verdict-digest.mjs`)
  if (entry.endsWith('/**')) {
    const dir = entry.slice(0, -3)
    if (!existsSync(join(root, dir))) throw missingDir(dir)
    return walk(join(root, dir)).map((file) => slash(relative(root, file))).sort()
  }
  const star = entry.lastIndexOf('/*.')
  if (star >= 0) {
    const dir = entry.slice(0, star)
    const ext = entry.slice(star + 2)
    if (!existsSync(join(root, dir))) throw missingDir(dir)
    return readdirSync(join(root, dir)).filter((name) => name.endsWith(ext)).map((name) => `${dir}/${name}`).sort()
  }
  if (!existsSync(join(root, entry))) throw new Error(`verdict-digest.mjs: ${entry} does not exist; update the list in scripts/verdict-digest.mjs`)
  return [entry]
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

/**
 * sha256 over each file's path and content (line endings as LF, so a Windows checkout agrees),
 * cut to 16 hex digits: enough to tell two versions apart, short enough for a table cell.
 */
export function verdictDigest(table, root = REPO_ROOT) {
  return digestOf(TABLES[table].sources, root)
}

/** The digest of the files a list of entries names (verdictDigest for a table's list). */
export function digestOf(sources, root = REPO_ROOT) {
  const files = [...new Set(sources.flatMap((entry) => expand(entry, root)))].sort()
  const hash = createHash('sha256')
  for (const file of files) {
    hash.update(`${file}\0`)
    hash.update(readFileSync(join(root, file), 'utf8').replace(/\r\n/g, '\n'))
    hash.update('\0')
  }
  return { digest: hash.digest('hex').slice(0, 16), files }
}
