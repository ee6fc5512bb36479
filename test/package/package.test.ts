/**
 * The package test: what a user gets from the registry, checked the way a user would use it.
 *
 * `npm pack`s the five workspaces (from the dist/ that `npm run build` wrote; the root `pretest`
 * script builds), installs the tarballs into a fresh project in the OS temp directory (no parent
 * node_modules, no repository bins on PATH) next to the pinned server-everything, cordis, typescript
 * and @types/node, then proves with plain `node` (no tsx, no loader) that a JavaScript host runs the
 * plugin, the cordis.yml loader and the `mcp-bridge` bin see the same tools, a TypeScript consumer
 * type-checks under moduleResolution node16 and bundler, and the `mcp-conformance` and `mcp-fixture`
 * bins work. The checks run under this Node and under pinned Node 22 and 24 (scripts/node-line.mjs);
 * the type-check of a consumer and the kit's whole default run, whose outcome does not depend on the
 * Node line, under this Node only.
 * Timings of every step are printed at the end.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative, sep } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WHOLE_DEFAULT_RUN_MS } from '../support/default-run.ts'
import { childEnv, explain, expectExit, isInside, killGroup, REPO, run, running, tail, type RunResult } from '../support/processes.ts'

const PROJECT_FILES = fileURLToPath(new URL('./project/', import.meta.url))
const WORKSPACES = [
  { dir: 'process', name: '@mcp-bridge/process' },
  { dir: 'plugin', name: '@mcp-bridge/plugin' },
  { dir: 'host', name: '@mcp-bridge/host' },
  { dir: 'fixtures-server', name: '@mcp-bridge/fixtures-server' },
  { dir: 'conformance', name: '@mcp-bridge/conformance' },
] as const
/** Installed beside the tarballs, at the exact versions the repository pins. */
const PINNED = ['@modelcontextprotocol/server-everything', 'cordis', 'typescript', '@types/node'] as const
const EVERYTHING_ENTRY = '@modelcontextprotocol/server-everything/dist/index.js'
const ECHO = 'mcp__everything__echo'

// ---------------------------------------------------------------------------------------------
// Timings

const timings: Array<{ what: string; ms: number }> = []
const timed = (what: string, result: RunResult) => {
  timings.push({ what, ms: result.ms })
  return result
}
const testStarted = performance.now()

// ---------------------------------------------------------------------------------------------
// The fresh project

interface Packed {
  name: string
  filename: string
  size: number
  unpackedSize: number
  entryCount: number
  files: string[]
}

const state: {
  root: string
  project: string
  tarballs: Packed[]
  /** Each pinned Node line's binary, or why there is none. */
  lines: Record<number, { binary?: string; error?: string }>
  everything: string
} = { root: '', project: '', tarballs: [], lines: {}, everything: '' }

/** The Node release lines the packed packages are run under, besides the system Node. */
const LINES = [22, 24]

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T
}

function pinnedVersions(): Record<(typeof PINNED)[number], string> {
  const dev = readJson<{ devDependencies: Record<string, string> }>(join(REPO, 'package.json')).devDependencies
  const out = {} as Record<(typeof PINNED)[number], string>
  for (const name of PINNED) {
    const version = dev[name]
    if (!version || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) throw new Error(`the root package.json must pin ${name} to an exact version (found ${version})`)
    out[name] = version
  }
  return out
}

/** The build this test packs: every workspace needs its dist/ (and conformance its scenarios copy). */
function assertBuilt(): void {
  const missing = WORKSPACES.flatMap(({ dir }) => ['dist/index.js', 'dist/index.d.ts'].map((file) => join(dir, file))).filter((file) => !existsSync(join(REPO, file)))
  if (!existsSync(join(REPO, 'conformance/scenarios'))) missing.push('conformance/scenarios/')
  if (missing.length) {
    throw new Error(`the packages are not built (missing ${missing.join(', ')}): run \`npm run build\` first (\`npm test\` does it in its pretest script)`)
  }
}

beforeAll(async () => {
  assertBuilt()
  const versions = pinnedVersions()
  state.root = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-bridge-package-')))
  if (isInside(state.root, REPO)) throw new Error(`the OS temp directory ${state.root} is inside the repository; set TMPDIR elsewhere`)
  const packDir = join(state.root, 'tarballs')
  state.project = join(state.root, 'project')
  mkdirSync(packDir)
  mkdirSync(state.project)

  const systemEnv = childEnv(process.execPath)
  // Pack, and fetch each Node line (scripts/node-line.mjs: its own cache dir, never the repo's node_modules).
  const [packed, ...lines] = await Promise.all([
    run('npm', ['pack', '--workspaces', '--json', '--pack-destination', packDir], { cwd: REPO, env: systemEnv, timeoutMs: 120_000 }),
    ...LINES.map((line) => run(process.execPath, [join(REPO, 'scripts/node-line.mjs'), String(line)], { cwd: REPO, env: systemEnv, timeoutMs: 540_000 })),
  ])
  timed('npm pack --workspaces', packed)
  for (const [index, line] of LINES.entries()) {
    const result = timed(`scripts/node-line.mjs ${line} (cached after the first run)`, lines[index]!)
    state.lines[line] = result.code === 0 && existsSync(result.stdout.trim()) ? { binary: result.stdout.trim() } : { error: explain(result, `scripts/node-line.mjs could not provide a Node ${line} binary`) }
  }
  if (packed.code !== 0) throw new Error(explain(packed, 'npm pack failed'))
  try {
    state.tarballs = (JSON.parse(packed.stdout) as Array<Omit<Packed, 'files'> & { files: Array<{ path: string }> }>).map((entry) => ({
      ...entry,
      files: entry.files.map((file) => file.path),
    }))
  } catch (error) {
    throw new Error(explain(packed, `npm pack --json printed no JSON (${String(error)})`))
  }

  writeFileSync(join(state.project, 'package.json'), JSON.stringify({ name: 'mcp-bridge-package-test', private: true, type: 'module' }, null, 2) + '\n')
  const install = timed(
    'npm install (5 tarballs + pinned packages)',
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--save-exact',
        ...state.tarballs.map((tarball) => join(packDir, tarball.filename)),
        ...PINNED.map((name) => `${name}@${versions[name]}`),
      ],
      { cwd: state.project, env: systemEnv, timeoutMs: 540_000 },
    ),
  )
  if (install.code !== 0) throw new Error(explain(install, 'npm install of the tarballs failed'))
  for (const file of readdirSync(PROJECT_FILES)) copyFileSync(join(PROJECT_FILES, file), join(state.project, file))
  state.everything = createRequire(join(state.project, 'package.json')).resolve(EVERYTHING_ENTRY)
}, 600_000)

afterAll(() => {
  for (const pid of running) killGroup(pid)
  if (state.root) rmSync(state.root, { recursive: true, force: true })
  const total = Math.round(performance.now() - testStarted)
  const width = Math.max(...timings.map((t) => t.what.length), 10)
  const lines = [
    'package test timings:',
    ...state.tarballs.map((t) => `  ${t.filename.padEnd(width)}  ${(t.size / 1024).toFixed(1)} KiB packed, ${(t.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${t.entryCount} files`),
    ...timings.map((t) => `  ${t.what.padEnd(width)}  ${(t.ms / 1000).toFixed(2)} s`),
    `  ${'total (this file)'.padEnd(width)}  ${(total / 1000).toFixed(2)} s`,
  ]
  console.log(lines.join('\n'))
})

// ---------------------------------------------------------------------------------------------
// The tarballs and the install

/** Relative paths of a directory's files, recursively. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path, base) : [relative(base, path).split(sep).join('/')]
  })
}

function tarball(name: string): Packed {
  const found = state.tarballs.find((t) => t.name === name)
  if (!found) throw new Error(`npm pack produced no tarball for ${name} (got ${state.tarballs.map((t) => t.name).join(', ')})`)
  return found
}

/** The `exports` targets a consumer resolves (the repository-only `mcp-bridge-source` aside) and the bins. */
function publishedTargets(manifest: { exports?: Record<string, unknown>; bin?: Record<string, string> }): string[] {
  const targets: string[] = []
  const walk = (value: unknown, condition: string) => {
    if (condition === 'mcp-bridge-source') return
    if (typeof value === 'string') targets.push(value)
    else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, key)
  }
  walk(manifest.exports ?? {}, '')
  targets.push(...Object.values(manifest.bin ?? {}))
  return [...new Set(targets.map((target) => target.replace(/^\.\//, '')))]
}

describe('the packed tarballs', () => {
  it.each(WORKSPACES)('$name ships LICENSE, README.md, declarations, every export and bin target, and no tests', ({ name }) => {
    const files = tarball(name).files
    const manifest = readJson<{ exports?: Record<string, unknown>; bin?: Record<string, string> }>(join(state.project, 'node_modules', name, 'package.json'))
    const missing = ['LICENSE', 'README.md', 'package.json', 'dist/index.d.ts', ...publishedTargets(manifest)].filter((file) => !files.includes(file))
    expect(missing, `${name}: files missing from the tarball (check "files" in ${name}'s package.json); it holds:\n${files.join('\n')}`).toEqual([])
    expect(files.filter((file) => file.startsWith('dist/') && file.endsWith('.d.ts')).length, `${name}: no dist/**/*.d.ts in the tarball`).toBeGreaterThan(1)
    const unwanted = files.filter((file) => /(^|\/)(test|tests|__tests__)\//.test(file) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) || /\.tsbuildinfo$/.test(file))
    expect(unwanted, `${name}: test files or build state in the tarball`).toEqual([])
  })

  it.each(WORKSPACES)('$name ships exactly the build of its current sources (no stale or missing dist/ files)', ({ dir, name }) => {
    const files = tarball(name).files
    const sources = filesUnder(join(REPO, dir, 'src'))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .map((file) => file.replace(/\.ts$/, ''))
    const built = files.filter((file) => file.startsWith('dist/') && file.endsWith('.js')).map((file) => file.slice('dist/'.length).replace(/\.js$/, ''))
    const orphans = built.filter((module) => !sources.includes(module)).map((module) => `dist/${module}.js (no ${dir}/src/${module}.ts)`)
    const unbuilt = sources.filter((module) => !built.includes(module)).map((module) => `${dir}/src/${module}.ts (no dist/${module}.js)`)
    expect(
      [...orphans, ...unbuilt],
      `${name}: the tarball's dist/ does not match ${dir}/src/. Missing outputs mean the build is stale: run \`npm run build\`. ` +
        `Outputs without a source are left over from deleted modules (tsc -b never deletes them) and would be published: delete ${dir}/dist and rebuild.`,
    ).toEqual([])
  })

  it('@mcp-bridge/conformance carries an exact copy of scenarios/', () => {
    const installed = join(state.project, 'node_modules/@mcp-bridge/conformance/scenarios')
    const source = join(REPO, 'scenarios')
    const expected = filesUnder(source).sort()
    expect(existsSync(installed) ? filesUnder(installed).sort() : [], 'scenario files in the package vs the repository (run `npm run build`)').toEqual(expected)
    const differing = expected.filter((file) => readFileSync(join(installed, file), 'utf8') !== readFileSync(join(source, file), 'utf8'))
    expect(differing, 'scenario files whose packaged copy differs from scenarios/ (run `npm run build`)').toEqual([])
  })

  it.each(WORKSPACES)("every relative link in $name's Markdown files leads to a file the install has", ({ name }) => {
    const root = join(state.project, 'node_modules', name)
    const broken: string[] = []
    for (const file of tarball(name).files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = target!.split('#')[0]!
        if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path)) continue
        if (!existsSync(join(root, dirname(file), decodeURIComponent(path)))) broken.push(`${file}: ${target}`)
      }
    }
    expect(broken, `${name}: links a user of the npm package follows to nothing (ship the file, or link within the package)`).toEqual([])
  })

  it("plugin/README.md's install line gives the plugin the cordis its peer range asks for", async () => {
    // What a user types first. `cordis` alone means the registry's `latest` tag, which is cordis 3;
    // the plugin needs cordis 4 (a prerelease that no dist-tag names), so the line must pin it.
    const readme = readFileSync(join(REPO, 'plugin/README.md'), 'utf8')
    const line = readme.split('\n').find((text) => /^npm (install|i) .*@mcp-bridge\/plugin(\s|$)/.test(text))
    expect(line, 'plugin/README.md has no `npm install @mcp-bridge/plugin ...` line').toBeDefined()
    const specs = line!.replace(/#.*$/, '').trim().split(/\s+/).slice(2)
    const project = join(state.root, 'readme-project')
    mkdirSync(project)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'readme-install', private: true, type: 'module' }) + '\n')
    // The registry would bring the workspaces the line names and their own dependency
    // @mcp-bridge/process (and the host's @mcp-bridge/plugin); their tarballs stand in.
    const workspace = (name: string) => join(state.root, 'tarballs', tarball(name).filename)
    const named = specs.filter((spec) => spec.startsWith('@mcp-bridge/'))
    const alongside = ['@mcp-bridge/process', '@mcp-bridge/plugin'].filter((name) => !named.includes(name))
    const args = [...specs.map((spec) => (spec.startsWith('@mcp-bridge/') ? workspace(spec) : spec)), ...alongside.map(workspace)]
    const install = timed(
      'npm install, as plugin/README.md says',
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...args], { cwd: project, env: childEnv(process.execPath), timeoutMs: 300_000 }),
    )
    expectExit(install)
    const peer = readJson<{ peerDependencies: Record<string, string> }>(join(project, 'node_modules/@mcp-bridge/plugin/package.json')).peerDependencies.cordis ?? ''
    const installed = readJson<{ version: string }>(join(project, 'node_modules/cordis/package.json')).version
    const major = (version: string) => /\d+/.exec(version)?.[0]
    const fix = `plugin/README.md line \`${line}\` (and the same line in README.md) should name the version, e.g. \`npm install @mcp-bridge/plugin cordis@${peer.replace(/^[\^~]/, '')}\``
    expect(install.stderr, `${fix}\nnpm reports a peer conflict:\n${tail(install.stderr, 15)}`).not.toMatch(/ERESOLVE|Could not resolve dependency/)
    expect(major(installed), `${fix}\nit installs cordis ${installed}; the plugin's peer range is ${peer}`).toBe(major(peer))
  })

  it('install into a project that sees no node_modules but its own, with one copy of cordis and of the plugin', () => {
    const ancestors: string[] = []
    for (let dir = dirname(state.project); ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'node_modules'))) ancestors.push(join(dir, 'node_modules'))
      if (dirname(dir) === dir) break
    }
    expect(ancestors, `node_modules above the temp project ${state.project} would leak packages into it`).toEqual([])
    const fromProject = createRequire(join(state.project, 'package.json'))
    const resolveFrom = (name: string, specifier: string) => createRequire(join(state.project, 'node_modules', name, 'package.json')).resolve(specifier)
    const cordis = fromProject.resolve('cordis')
    // Two copies of cordis would split the plugin's `declare module 'cordis'` augmentation and the
    // Context identity between the host and the plugin.
    for (const { name } of WORKSPACES) {
      if (name === '@mcp-bridge/fixtures-server' || name === '@mcp-bridge/process') continue
      expect(resolveFrom(name, 'cordis'), `${name} resolves its own copy of cordis`).toBe(cordis)
    }
    // One registry of process groups and one exit hook for the whole host (@mcp-bridge/process).
    for (const name of ['@mcp-bridge/plugin', '@mcp-bridge/host', '@mcp-bridge/fixtures-server', '@mcp-bridge/conformance']) {
      expect(resolveFrom(name, '@mcp-bridge/process'), `${name} resolves its own copy of @mcp-bridge/process`).toBe(fromProject.resolve('@mcp-bridge/process'))
    }
    for (const name of ['@mcp-bridge/host', '@mcp-bridge/conformance']) {
      expect(resolveFrom(name, '@mcp-bridge/plugin'), `${name} resolves its own copy of the plugin`).toBe(fromProject.resolve('@mcp-bridge/plugin'))
    }
    expect(isInside(cordis, state.project) && isInside(state.everything, state.project), 'packages resolve from the temp project').toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// The same checks under each Node

interface Variant {
  label: string
  binary(): string
}

const VARIANTS: Variant[] = [
  { label: `system node ${process.version}`, binary: () => process.execPath },
  ...LINES.map((line) => ({
    label: `node ${line} (scripts/node-line.mjs)`,
    binary: () => {
      const { binary, error } = state.lines[line] ?? {}
      if (!binary) throw new Error(error ?? `no Node ${line} binary`)
      return binary
    },
  })),
]

interface Results {
  exitCode: number
  summary: Record<'pass' | 'fail' | 'warn' | 'skip' | 'error', number>
  staleBaseline: string[]
  suites: Array<{ id: string; kind: 'client' | 'server'; target: string; transport?: string; checks: Array<{ id: string; status: string; expected?: boolean; message: string }> }>
}

/** The three reports of a run; results.json parsed. */
function readReports(dir: string): Results {
  const missing = ['results.json', 'junit.xml', 'report.html'].filter((file) => !existsSync(join(dir, file)) || statSync(join(dir, file)).size === 0)
  expect(missing, `reports missing or empty in ${dir}`).toEqual([])
  expect(readFileSync(join(dir, 'junit.xml'), 'utf8'), 'junit.xml').toMatch(/^<\?xml[\s\S]*<testsuite[\s>]/)
  expect(readFileSync(join(dir, 'report.html'), 'utf8'), 'report.html').toMatch(/^<!doctype html>/i)
  return readJson<Results>(join(dir, 'results.json'))
}

/** The failed checks a run wrote to results.json, for a failure message (none when there is no file). */
function failuresIn(dir: string): string {
  const file = join(dir, 'results.json')
  if (!existsSync(file)) return 'no results.json was written'
  try {
    const lines = failing(readJson<Results>(file))
    return lines.length ? `failed checks in results.json:\n${lines.join('\n')}` : 'results.json lists no failed check'
  } catch (error) {
    return `results.json does not parse: ${String(error)}`
  }
}

const failing = (results: Results) =>
  results.suites.flatMap((suite) => suite.checks.filter((check) => check.status === 'fail' || check.status === 'error').map((check) => `${suite.id}:${check.id} ${check.status}${check.expected ? ' (expected)' : ''}: ${check.message}`))

function scenarioIds(): string[] {
  return readdirSync(join(REPO, 'scenarios'))
    .filter((file) => file.endsWith('.yaml') && !file.startsWith('_'))
    .map((file) => file.replace(/\.yaml$/, ''))
    .sort()
}

describe('the declarations without skipLibCheck (once: tsc does not depend on the Node running it)', () => {
  // The consumer's tsconfigs set skipLibCheck only because of cordis. Without it, bundler is clean,
  // and under node16 every diagnostic is cordis 4.0.0-rc.10's (extension-less relative imports in
  // lib/index.d.ts, TS2834), its consequence (cordis's names do not resolve, TS2305 in our
  // declarations that import them), or schemastery's (a CommonJS .d.ts importing ESM cosmokit,
  // TS1479). So skipLibCheck hides nothing of ours.
  const upstream = (line: string) =>
    (line.startsWith('node_modules/cordis/lib/') && line.includes('error TS2834')) ||
    (line.startsWith('node_modules/schemastery/lib/') && line.includes('error TS1479')) ||
    (line.startsWith('node_modules/@mcp-bridge/') && line.includes(`error TS2305: Module '"cordis"' has no exported member`))

  it('bundler: no diagnostic at all; node16: only cordis and schemastery problems', async () => {
    const tsc = join(state.project, 'node_modules/typescript/bin/tsc')
    const env = childEnv(process.execPath, state.project)
    const [bundler, node16] = await Promise.all(
      (['bundler', 'node16'] as const).map(async (mode) =>
        timed(
          `tsc --noEmit --skipLibCheck false (${mode})`,
          await run(process.execPath, [tsc, '-p', `tsconfig.${mode}.json`, '--skipLibCheck', 'false'], { cwd: state.project, env, timeoutMs: 180_000 }),
        ),
      ),
    )
    expectExit(bundler!)
    expect(bundler!.stdout.trim(), explain(bundler!, 'declarations with errors under bundler')).toBe('')
    const diagnostics = node16!.stdout.split('\n').filter((line) => /error TS\d+/.test(line))
    expect(node16!.timedOut || node16!.code === null, explain(node16!)).toBe(false)
    expect(diagnostics.filter((line) => !upstream(line)), explain(node16!, 'node16 diagnostics that are not cordis/schemastery problems')).toEqual([])
  })
})

describe.each(VARIANTS)('under $label', (variant) => {
  const env = () => childEnv(variant.binary(), state.project)
  const reportDir = (name: string) => join(state.root, `reports-${variant.label.split(' ').slice(0, 2).join('-')}-${name}`)
  const step = (what: string, result: RunResult) => timed(`${variant.label.split(' (')[0]}: ${what}`, result)
  /** The public names host.mjs saw, for the loader test to compare with. */
  let hostTools: string[] | undefined

  it('is the Node it claims to be, with the project bins and no repository on PATH', async () => {
    const node = variant.binary()
    const version = await run(node, ['-p', 'process.version + " " + process.execPath'], { cwd: state.project, env: env(), timeoutMs: 30_000 })
    expectExit(version)
    const line = /^node (\d+) /.exec(variant.label)?.[1]
    if (line) expect(version.stdout, `scripts/node-line.mjs must give a Node ${line}`).toMatch(new RegExp(`^v${line}\\.`))
    else expect(version.stdout.split(' ')[0]).toBe(process.version)
    const [first, ...rest] = env().PATH?.split(delimiter) ?? []
    expect(first, 'the Node under test comes first on PATH').toBe(dirname(node))
    expect(rest.filter((entry) => isInside(entry, REPO) || (entry.split(sep).includes('node_modules') && !isInside(entry, state.project))), 'PATH entries into the repository or another node_modules').toEqual([])
  })

  it('a plain .mjs host loads the plugin over stdio, calls echo, disposes and exits on its own with 0', async () => {
    const node = variant.binary()
    const host = step('node host.mjs (plugin + server-everything, echo)', await run(node, ['host.mjs'], { cwd: state.project, env: env(), timeoutMs: 60_000 }))
    expectExit(host)
    const line = host.stdout.trim().split('\n').at(-1) ?? ''
    let out: { node: string; tools: string[]; result: { isError: boolean; value?: { content?: Array<{ type: string; text?: string }> }; content: Array<{ type: string; text?: string }> }; afterDispose: string[] }
    try {
      out = JSON.parse(line) as typeof out
    } catch {
      throw new Error(explain(host, 'host.mjs printed no JSON result line'))
    }
    const version = (await run(node, ['--version'], { cwd: state.project, env: env(), timeoutMs: 30_000 })).stdout.trim()
    expect(out.node, 'host.mjs ran under another Node').toBe(version)
    expect(out.tools, 'the plugin registered server-everything tools').toContain(ECHO)
    expect(out.result.isError, explain(host, 'echo returned an error result')).toBe(false)
    expect(out.result.content, 'echo: model-facing content').toEqual([{ type: 'text', text: 'Echo: hi' }])
    expect(out.result.value?.content, 'echo: canonical value').toEqual([{ type: 'text', text: 'Echo: hi' }])
    expect(out.afterDispose, 'tools left registered after dispose').toEqual([])
    hostTools = out.tools
  })

  it('the cordis.yml loader (createFileHost) and the mcp-bridge bin see the same tools as the host', async () => {
    const node = variant.binary()
    const file = join(state.project, `cordis.${process.pid}.${VARIANTS.indexOf(variant)}.yml`)
    writeFileSync(
      file,
      [
        '- id: everything',
        "  name: '@mcp-bridge/plugin'",
        '  config:',
        '    serverName: everything',
        '    transport: stdio',
        `    command: ${JSON.stringify(node)}`,
        `    args: [${JSON.stringify(state.everything)}]`,
        '',
      ].join('\n'),
    )
    if (!hostTools) {
      const host = step('node host.mjs (again, for the tool list)', await run(node, ['host.mjs'], { cwd: state.project, env: env(), timeoutMs: 60_000 }))
      expectExit(host)
      hostTools = (JSON.parse(host.stdout.trim().split('\n').at(-1) ?? '{}') as { tools: string[] }).tools
    }

    const loader = step('node loader.mjs (createFileHost + cordis.yml)', await run(node, ['loader.mjs', file], { cwd: state.project, env: env(), timeoutMs: 60_000 }))
    expectExit(loader)
    const loaded = JSON.parse(loader.stdout.trim().split('\n').at(-1) ?? '{}') as { added: string[]; errors: unknown[]; ok: boolean; tools: string[] }
    expect(loaded.errors, explain(loader, 'cordis.yml load errors')).toEqual([])
    expect(loaded.ok, 'the loader reports the whole file running').toBe(true)
    expect(loaded.added).toEqual(['everything'])
    expect(loaded.tools, 'tools listed through the loader vs through the host').toEqual(hostTools)

    const cli = step(
      'npx mcp-bridge call mcp__everything__echo',
      await run('npx', ['--no-install', 'mcp-bridge', '--config', file, 'call', ECHO, '{"message":"hi"}'], { cwd: state.project, env: env(), timeoutMs: 60_000 }),
    )
    expectExit(cli)
    expect(cli.stdout, explain(cli, 'the mcp-bridge bin did not print the echo')).toContain('Echo: hi')
  })

  // Once, under the system Node: what tsc says does not depend on the Node running it (as above).
  if (variant === VARIANTS[0]) it('a TypeScript consumer of every public entry type-checks under node16 and bundler (strict)', async () => {
    const node = variant.binary()
    const tsc = join(state.project, 'node_modules/typescript/bin/tsc')
    const checks = await Promise.all(
      (['node16', 'bundler'] as const).map(async (mode) =>
        step(`tsc --noEmit (${mode})`, await run(node, [tsc, '-p', `tsconfig.${mode}.json`], { cwd: state.project, env: env(), timeoutMs: 120_000 })),
      ),
    )
    for (const checked of checks) {
      expectExit(checked)
      expect(checked.stdout.trim(), explain(checked)).toBe('')
    }
  })

  // The whole default run (138 scenario runs and the server checks) once, under the system Node:
  // under the other lines it would repeat the same scenarios on the same code. Each line still
  // installs the kit and runs its three commands (list, client, server) in the next test.
  if (variant === VARIANTS[0]) it('npx mcp-conformance (the default main job) passes with the bundled baseline and writes the reports', async () => {
    const node = realpathSync(variant.binary())
    const dir = reportDir('default')
    const job = step('npx mcp-conformance (default main job)', await run('npx', ['--no-install', 'mcp-conformance', '--report-dir', dir], { cwd: state.project, env: env(), timeoutMs: WHOLE_DEFAULT_RUN_MS }))
    expectExit(job, [0], failuresIn(dir))
    const results = readReports(dir)
    expect(results.exitCode).toBe(0)
    expect(results.staleBaseline, 'stale baseline entries').toEqual([])
    expect(results.summary.error, failing(results).join('\n')).toBe(0)
    expect(failing(results).filter((line) => !line.includes('(expected)')), 'failures the default baseline does not expect').toEqual([])
    const client = results.suites.filter((suite) => suite.kind === 'client')
    expect([...new Set(client.map((suite) => suite.id))].sort(), 'client scenarios of the default run vs scenarios/').toEqual(scenarioIds())
    expect(new Set(client.map((suite) => suite.transport)), 'the default run covers both transports').toEqual(new Set(['stdio', 'http']))
    const server = results.suites.filter((suite) => suite.kind === 'server')
    expect(server.length, 'one server suite').toBe(1)
    // The kit starts server-everything with its own Node binary: this proves which Node ran it.
    expect(realpathSync(server[0]!.target.split(' ')[0]!), `the server suite's target ${server[0]!.target}`).toBe(node)
    expect(server[0]!.target).toContain(state.everything)
    expect(server[0]!.checks.length).toBeGreaterThan(10)
  }, WHOLE_DEFAULT_RUN_MS + 60_000)

  it('npx mcp-conformance list, client --scenario dotted-names, and server -- node <server-everything>', async () => {
    const list = step('npx mcp-conformance list', await run('npx', ['--no-install', 'mcp-conformance', 'list'], { cwd: state.project, env: env(), timeoutMs: 60_000 }))
    expectExit(list)
    const lines = list.stdout.trim().split('\n')
    expect(lines.every((line) => /^[a-z0-9-]+\t\S/.test(line)), explain(list, 'list prints "id<TAB>title" lines')).toBe(true)
    expect(lines.map((line) => line.split('\t')[0]).sort(), 'listed scenario ids vs scenarios/').toEqual(scenarioIds())

    const clientDir = reportDir('client')
    const client = step(
      'npx mcp-conformance client --scenario dotted-names',
      await run('npx', ['--no-install', 'mcp-conformance', 'client', '--scenario', 'dotted-names', '--report-dir', clientDir], { cwd: state.project, env: env(), timeoutMs: 120_000 }),
    )
    expectExit(client, [0], failuresIn(clientDir))
    const clientResults = readReports(clientDir)
    expect(new Set(clientResults.suites.map((suite) => suite.id))).toEqual(new Set(['dotted-names']))
    expect(failing(clientResults)).toEqual([])
    expect(clientResults.suites.flatMap((suite) => suite.checks).length).toBeGreaterThan(0)

    // FORMAT.md's example driver ships with the kit: any client is judged from the installed package,
    // and that run merges the plugin's run above into its report (--merge), labelled.
    const driver = join(state.project, 'node_modules', '@mcp-bridge', 'conformance', 'drivers', 'sdk-client.mjs')
    const driverDir = reportDir('driver')
    const driven = step(
      'npx mcp-conformance client --driver <shipped sdk-client.mjs> --merge plugin=<client run>',
      await run(
        'npx',
        ['--no-install', 'mcp-conformance', 'client', '--scenario', 'dotted-names', '--driver', `node ${driver}`, '--merge', `plugin=${join(clientDir, 'results.json')}`, '--report-dir', driverDir],
        { cwd: state.project, env: env(), timeoutMs: 120_000 },
      ),
    )
    expectExit(driven, [0], failuresIn(driverDir))
    const drivenResults = readReports(driverDir)
    expect(drivenResults.suites.map((suite) => suite.id).sort()).toEqual(['dotted-names', 'dotted-names', 'plugin/dotted-names', 'plugin/dotted-names'])
    expect(drivenResults.suites.filter((suite) => suite.id === 'dotted-names').every((suite) => suite.target.includes('sdk-client.mjs'))).toBe(true)

    // README: without --call the kit calls no tool, so the one known failure of server-everything
    // (its task-only tool answering a plain call with isError) is only seen by the default run,
    // whose baseline expects it. Here the exit code is 0 (all pass) or 1 (a failure), never 2, and
    // it must agree with results.json.
    const serverDir = reportDir('server')
    const server = step(
      'npx mcp-conformance server -- node server-everything',
      await run('npx', ['--no-install', 'mcp-conformance', 'server', '--report-dir', serverDir, '--', 'node', state.everything], { cwd: state.project, env: env(), timeoutMs: 120_000 }),
    )
    expectExit(server, [0, 1], failuresIn(serverDir))
    const serverResults = readReports(serverDir)
    expect(serverResults.exitCode, explain(server, 'results.json exitCode vs the process exit code')).toBe(server.code)
    expect(serverResults.suites.map((suite) => suite.kind)).toEqual(['server'])
    expect(serverResults.suites[0]!.checks.length, 'server checks in results.json').toBeGreaterThan(10)
    expect(serverResults.summary.error, failing(serverResults).join('\n')).toBe(0)
    expect(serverResults.summary.fail > 0, 'exit 1 iff a check failed').toBe(server.code === 1)
  })

  it('npx mcp-fixture --help exits 0', async () => {
    const help = step('npx mcp-fixture --help', await run('npx', ['--no-install', 'mcp-fixture', '--help'], { cwd: state.project, env: env(), timeoutMs: 60_000 }))
    expectExit(help)
    expect(help.stdout + help.stderr, explain(help)).toMatch(/mcp-fixture/)
  })
})
