/**
 * The repository's action.yml, run locally the way GitHub's runner runs a composite action: each
 * step's `env:` with its `${{ inputs.* }}`, `${{ steps.<id>.outputs.* }}` and
 * `${{ github.action_path }}` filled in (defaults from action.yml), its `run:` under
 * `bash -eo pipefail`, each step with its own GITHUB_OUTPUT file, GITHUB_STEP_SUMMARY in a temp
 * dir. Steps that `uses:` another action are skipped: they are the cache restore and save
 * (GitHub's actions/cache), so the install step here always finds either a checkout that is
 * already built (as after a cache hit) or one it has to install.
 *
 * The action's checkout (GITHUB_ACTION_PATH) is a temp dir of symlinks into this repository,
 * whose build stands for the one kit.mjs makes: the install step finds it built and runs no npm.
 * Runs that must not reach a registry get npm_config_registry at a closed port on 127.0.0.1, and
 * an `npm` and an `npx` on PATH that record being run and fail.
 */
import { spawn } from 'node:child_process'
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { RunReport } from '../src/model.ts'
import { escapeData, escapeProperty } from '../src/report/annotations.ts'
import { COULD_NOT_RUN as KIT_COULD_NOT_RUN } from '../src/report/markdown.ts'
import { serverEntry } from './server-helpers.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const FIXTURE_BIN = join(ROOT, 'fixtures-server/bin/mcp-fixture.js')

interface ActionStep {
  id?: string
  if?: string
  shell?: string
  uses?: string
  env?: Record<string, string>
  run?: string
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>
  outputs: Record<string, { value: string }>
  runs: { using: string; steps: ActionStep[] }
}

const loadAction = async () => parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as Action

interface ActionRun {
  code: number | null
  stdout: string
  stderr: string
  /** What the steps appended to GITHUB_STEP_SUMMARY (after the line an earlier step left there). */
  summary: string
  /** The action's outputs, as action.yml maps them from its steps' outputs. */
  outputs: Record<string, string>
  /** The `uses:` steps this runner skipped. */
  skipped: string[]
}

/** GITHUB_OUTPUT as key → value (one-line values: the action writes no others). */
async function readOutputs(file: string): Promise<Record<string, string>> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean)
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]))
}

/** Runs every step of action.yml with these `with:` inputs, in `cwd` (the user's workspace), the action checked out at `actionPath`. */
async function runAction(inputs: Record<string, string>, cwd: string, actionPath: string, env: Record<string, string> = {}): Promise<ActionRun> {
  const action = await loadAction()
  for (const name of Object.keys(inputs)) if (!(name in action.inputs)) throw new Error(`action.yml has no input "${name}"`)
  const steps: Record<string, Record<string, string>> = {}
  const fill = (text: string) => {
    const filled = text
      .replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => inputs[name] ?? action.inputs[name]?.default ?? '')
      .replace(/\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}/g, (_, id: string, name: string) => steps[id]?.[name] ?? '')
      .replace(/\$\{\{\s*github\.action_path\s*\}\}/g, actionPath)
    if (filled.includes('${{')) throw new Error(`this local runner knows only inputs, steps' outputs and github.action_path: ${text}`)
    return filled
  }
  const github = await mkdtemp(join(tmpdir(), 'mcp-action-runner-'))
  const summaryFile = join(github, 'step-summary.md')
  await writeFile(summaryFile, 'from an earlier step\n')
  let last: Pick<ActionRun, 'code' | 'stdout' | 'stderr'> = { code: 0, stdout: '', stderr: '' }
  const skipped: string[] = []
  let stdout = ''
  let stderr = ''
  try {
    for (const [index, step] of action.runs.steps.entries()) {
      if (step.uses) {
        skipped.push(step.uses)
        continue
      }
      // A run step always runs: the scripts decide, so this runner never has to judge an `if:`.
      expect(step.if).toBeUndefined()
      expect(step.shell).toBe('bash')
      const outputFile = join(github, `output-${index}`)
      await writeFile(outputFile, '')
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, fill(String(value))]))
      const runnerEnv = { GITHUB_ACTION_PATH: actionPath, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile }
      // GitHub's own invocation for `shell: bash`.
      last = await spawnCapture('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', fill(step.run ?? '')], cwd, { ...process.env, ...env, ...stepEnv, ...runnerEnv })
      stdout += last.stdout
      stderr += last.stderr
      if (step.id) steps[step.id] = await readOutputs(outputFile)
      if (last.code !== 0) break
    }
    const summary = await readFile(summaryFile, 'utf8')
    expect(summary.startsWith('from an earlier step\n')).toBe(true) // appended, never overwritten
    const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, fill(output.value)]).filter(([, value]) => value !== ''))
    return { code: last.code, stdout, stderr, summary: summary.slice('from an earlier step\n'.length), outputs, skipped }
  } finally {
    await rm(github, { recursive: true, force: true })
  }
}

function spawnCapture(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

/** The key kit.mjs computes for a checkout, as its plan step outputs it. */
async function keyOf(actionPath: string): Promise<string> {
  const out = join(actionPath, '.plan-output')
  const run = await spawnCapture(process.execPath, [join(actionPath, 'conformance/action/kit.mjs'), 'plan'], actionPath, { ...process.env, GITHUB_ACTION_PATH: actionPath, GITHUB_OUTPUT: out, INPUT_VERSION: '' })
  expect(run.code).toBe(0)
  const { key } = await readOutputs(out)
  await rm(out)
  expect(key).toMatch(/^mcp-conformance-kit-[\w-]+-node\d+-[0-9a-f]{32}$/)
  return key!
}

/**
 * The action's checkout: symlinks to this repository's top-level entries (`except` left out),
 * and, when `built`, the marker kit.mjs leaves after an install, with the checkout's key.
 */
async function actionCheckout(name: string, options: { built: boolean; except?: string[] }): Promise<string> {
  const dir = join(workspace, 'actions', name)
  await mkdir(dir, { recursive: true })
  for (const entry of await readdir(ROOT)) {
    if (entry === '.git' || options.except?.includes(entry)) continue
    await symlink(join(ROOT, entry), join(dir, entry))
  }
  if (options.built) {
    await mkdir(join(dir, '.mcp-conformance-kit'))
    await writeFile(join(dir, '.mcp-conformance-kit', 'installed'), `${await keyOf(dir)}\n`)
  }
  return dir
}

/** A directory of stand-ins for npm and npx that record that they ran, and fail. */
async function guardBin(): Promise<{ bin: string; ran: () => Promise<string> }> {
  const bin = await mkdtemp(join(workspace, 'guard-'))
  const log = join(bin, 'ran.log')
  for (const name of ['npm', 'npx']) {
    await writeFile(join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\necho "npm error code E404" >&2\necho "npm error 404 Not Found - GET @mcp-bridge/conformance" >&2\nexit 1\n`)
    await chmod(join(bin, name), 0o755)
  }
  return { bin, ran: () => readFile(log, 'utf8').catch(() => '') }
}

/** A port on 127.0.0.1 that nothing listens on: a registry there is unreachable. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

const annotations = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::'))

let workspace: string
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mcp-action-'))
})
afterAll(() => rm(workspace, { recursive: true, force: true }))

/** A fresh directory in the workspace: one per test, so reports never mix. */
async function folder(name: string): Promise<string> {
  const dir = join(workspace, name)
  await mkdir(dir, { recursive: true })
  return dir
}

/** The outputs of a step that ended without the kit's verdict. */
const NO_VERDICT = { 'exit-code': '2', passed: '0', failed: '0', warnings: '0' }

describe('action.yml', () => {
  it('declares the documented inputs and outputs; no version means the kit of its own checkout', async () => {
    const action = await loadAction()
    expect(Object.keys(action.inputs).sort()).toEqual(['args', 'baseline', 'calls', 'command', 'report-dir', 'url', 'version'])
    expect(Object.values(action.inputs).every((i) => !i.required)).toBe(true)
    expect(action.inputs['report-dir']?.default).toBe('mcp-conformance-reports')
    expect(action.inputs.version?.default).toBe('')
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'failed', 'passed', 'report', 'warnings'])
    expect(action.runs.using).toBe('composite')
    // Inputs reach the scripts only through the environment, never spliced into the shell line.
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{')
    // The cache is keyed by what kit.mjs computes from the checkout, and saved only after a build of its own.
    const uses = action.runs.steps.filter((step) => step.uses)
    expect(uses.map((step) => step.uses)).toEqual(['actions/cache/restore@v4', 'actions/cache/save@v4'])
    for (const step of uses) expect(JSON.stringify(step)).toContain('steps.kit.outputs.key')
    expect(uses[1]?.if).toContain("steps.install.outputs.installed == 'built'")
  })

  it('the registry unreachable, no npm run: the kit of the checkout judges a real fixture server; the summary, the outputs and the annotations match results.json', async () => {
    const cwd = await folder('fixture') // an empty repository, but for the server's behaviour file
    await mkdir(join(cwd, 'my server'))
    await writeFile(
      join(cwd, 'my server', 'behaviour.yaml'),
      [
        'name: action-fixture',
        'tools:',
        '  - name: echo', // answers any arguments: invalid ones too, which the baseline accepts
        '    description: echoes its arguments',
        '    inputSchema: { type: object, properties: { message: { type: string } }, required: [message] }',
        '  - name: has space', // outside SEP-986: a warning
        '    description: an awkward name',
        '  - name: bad_schema', // not an object schema: a failure
        '    description: a string schema',
        '    inputSchema: { type: string }',
        '',
      ].join('\n'),
    )
    await writeFile(join(cwd, 'baseline.yaml'), 'expectedFailures:\n  - server:tools/call-invalid-arguments\n')
    const guard = await guardBin()
    const registry = `http://127.0.0.1:${await closedPort()}/`
    const run = await runAction(
      { command: `node '${FIXTURE_BIN}' "my server/behaviour.yaml"`, calls: 'echo={"message":"hi"}', baseline: 'baseline.yaml', args: '--server-name action-test' },
      cwd,
      await actionCheckout('built', { built: true }),
      { PATH: `${guard.bin}${delimiter}${process.env.PATH}`, npm_config_registry: registry, NPM_CONFIG_REGISTRY: registry },
    )
    expect(await guard.ran()).toBe('') // neither npm nor npx: nothing was looked up
    expect(run.skipped).toEqual(['actions/cache/restore@v4', 'actions/cache/save@v4'])
    expect(run.stderr).toContain('the kit of this checkout is already built')
    const report = JSON.parse(await readFile(join(cwd, 'mcp-conformance-reports', 'results.json'), 'utf8')) as RunReport
    const checks = report.suites.flatMap((s) => s.checks)
    const status = Object.fromEntries(checks.map((c) => [c.id, c.status]))
    // The inputs arrived: the quoted path with a space, the call, the baseline.
    expect(report.suites[0]?.target).toContain('my server/behaviour.yaml')
    expect(status).toMatchObject({ 'tools/call/echo': 'pass', 'tools/names-valid': 'warn', 'tools/input-schema': 'fail', 'tools/call-invalid-arguments': 'fail' })
    expect(checks.find((c) => c.id === 'tools/call-invalid-arguments')?.expected).toBe(true)

    // The step's exit status is the kit's.
    expect(report.exitCode).toBe(1)
    expect(run.code).toBe(1)

    const s = report.summary
    expect(run.outputs).toEqual({ 'exit-code': '1', passed: String(s.pass), failed: String(s.fail), warnings: String(s.warn), report: join('mcp-conformance-reports', 'report.html') })
    expect((await stat(join(cwd, run.outputs.report!))).isFile()).toBe(true)

    expect(run.summary).toMatch(/^## ❌ MCP conformance: failed\n\nExit code 1: 1 check failed that the baseline does not expect\.\n/)
    expect(run.summary).toContain(`| ${s.pass} | ${s.fail} (1 expected by the baseline) | ${s.warn} | ${s.skip} | ${s.error} |`)
    expect(run.summary).toContain('| fail (expected by the baseline) | `server:tools/call-invalid-arguments` |')
    expect(run.summary).toContain('| fail | `server:tools/input-schema` |')
    expect(run.summary).not.toContain('| skip |')
    expect(await readFile(join(cwd, 'mcp-conformance-reports', 'summary.md'), 'utf8')).toBe(run.summary)

    // One annotation per non-passing check that matters, and nothing else on stdout.
    const lines = annotations(run.stdout)
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(lines)
    const unexpected = checks.filter((c) => c.status === 'fail' && !c.expected)
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(unexpected.length)
    expect(lines.filter((l) => l.startsWith('::warning '))).toHaveLength(s.warn)
    expect(lines).toContain('::notice title=mcp-conformance server%3Atools/call-invalid-arguments (expected by the baseline)::' + checks.find((c) => c.id === 'tools/call-invalid-arguments')!.message.replace(/%/g, '%25').replace(/\n/g, '%0A'))
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^::error title=mcp-conformance server%3Atools\/input-schema::\S/), expect.stringMatching(/^::warning title=mcp-conformance server%3Atools\/names-valid::\S/)]))
  })

  it('a kit that cannot start (a broken install) is exit 2 with an ::error annotation, a summary that says so and the outputs set', async () => {
    const cwd = await folder('broken-kit')
    // The checkout's conformance package holds its bin, but a build that cannot load.
    const checkout = await actionCheckout('broken', { built: false, except: ['conformance'] })
    await mkdir(join(checkout, 'conformance', 'bin'), { recursive: true })
    await mkdir(join(checkout, 'conformance', 'dist'))
    for (const entry of ['action', 'package.json', 'examples', 'drivers', 'src', 'tsconfig.json']) await symlink(join(ROOT, 'conformance', entry), join(checkout, 'conformance', entry))
    await copyFile(join(ROOT, 'conformance/bin/mcp-conformance.js'), join(checkout, 'conformance/bin/mcp-conformance.js'))
    // What a bare --version needs is there; the CLI itself imports a package the install lacks.
    await mkdir(join(checkout, 'conformance/dist/cli'))
    for (const file of ['quick.js', 'tool.js']) await copyFile(join(ROOT, 'conformance/dist/cli', file), join(checkout, 'conformance/dist/cli', file))
    await writeFile(join(checkout, 'conformance/dist/cli.js'), "import '@mcp-bridge/not-installed'\n")
    await mkdir(join(checkout, '.mcp-conformance-kit'))
    await writeFile(join(checkout, '.mcp-conformance-kit', 'installed'), `${await keyOf(checkout)}\n`)
    const guard = await guardBin()
    const run = await runAction({ command: `node '${FIXTURE_BIN}' x.yaml` }, cwd, checkout, { PATH: `${guard.bin}${delimiter}${process.env.PATH}` })
    expect(await guard.ran()).toBe('')
    expect(run.code).toBe(2)
    expect(annotations(run.stdout)).toEqual([expect.stringMatching(/^::error title=mcp-conformance action::the kit could not run: cannot load the kit .*@mcp-bridge\/not-installed/)])
    expect(run.summary).toMatch(/^## ⚠️ MCP conformance: could not run\n\nExit code 2: the kit could not run: cannot load the kit .*not-installed/)
    expect(run.outputs).toEqual({ ...NO_VERDICT })
  })

  it('an install that fails (npm cannot reach the registry) is exit 2 with npm\'s reason in the annotation, and no kit is run', async () => {
    const cwd = await folder('install-fails')
    const checkout = await actionCheckout('not-installed', { built: false, except: ['node_modules'] })
    const guard = await guardBin()
    const run = await runAction({ command: `node '${FIXTURE_BIN}' x.yaml` }, cwd, checkout, { PATH: `${guard.bin}${delimiter}${process.env.PATH}` })
    expect(await guard.ran()).toBe('npm ci --workspace conformance --ignore-scripts --no-audit --no-fund\n')
    expect(run.code).toBe(2)
    expect(annotations(run.stdout.replace(/^::(group|endgroup)::.*\n/gm, ''))).toEqual([
      "::error title=mcp-conformance action::cannot install the kit from the action's checkout: npm ci --workspace exited 1: npm error code E404 npm error 404 Not Found - GET @mcp-bridge/conformance",
    ])
    expect(run.summary).toMatch(/^## ⚠️ MCP conformance: could not run\n\nExit code 2: cannot install the kit/)
    expect(run.outputs).toEqual({ ...NO_VERDICT })
  })

  it('a version runs exactly that published version with npx, its argv built from the inputs; npx failing is exit 2, annotated', async () => {
    const cwd = await folder('fake-npx')
    const bin = await folder('fake-npx-bin')
    // A stand-in npx: records its argv one per line and exits 3, a code the kit never uses.
    await writeFile(join(bin, 'npx'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(cwd, 'argv.txt')}'\necho 'npm error 404 Not Found' >&2\nexit 3\n`)
    await chmod(join(bin, 'npx'), 0o755)
    const run = await runAction(
      {
        command: `node "dist/my server.js" --flag='a b' it\\'s \\\n  last`,
        calls: 'echo={"message":"hi there"}\n\n  add={"a":1,"b":2}  \n',
        baseline: 'conformance-baseline.yaml',
        args: `--timeout 20000 --header 'Authorization=Bearer x y'`,
        version: '9.9.9',
      },
      cwd,
      await actionCheckout('npx', { built: false, except: ['node_modules'] }),
      { PATH: `${bin}${delimiter}${process.env.PATH}` },
    )
    const argv = (await readFile(join(cwd, 'argv.txt'), 'utf8')).split('\n').slice(0, -1)
    expect(argv).toEqual([
      '--yes', '@mcp-bridge/conformance@9.9.9',
      'server', '--report-dir', 'mcp-conformance-reports', '--summary-md', join('mcp-conformance-reports', 'summary.md'), '--annotations', 'github',
      '--baseline', 'conformance-baseline.yaml',
      '--call', 'echo={"message":"hi there"}', '--call', 'add={"a":1,"b":2}',
      '--timeout', '20000', '--header', 'Authorization=Bearer x y',
      '--', 'node', 'dist/my server.js', '--flag=a b', "it's", 'last',
    ])
    // No results: the step says the kit gave no verdict, never that a check failed.
    expect(run.code).toBe(2)
    expect(annotations(run.stdout)).toEqual(['::error title=mcp-conformance action::the kit exited 3 without a verdict (no results.json): npm error 404 Not Found'])
    expect(run.outputs).toEqual({ ...NO_VERDICT })
    expect(run.summary).toContain('Exit code 2: the kit exited 3 without a verdict (no results.json): npm error 404 Not Found')
  })

  it('a url makes `--url URL` instead of a command', async () => {
    const cwd = await folder('fake-npx-url')
    const bin = await folder('fake-npx-url-bin')
    await writeFile(join(bin, 'npx'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(cwd, 'argv.txt')}'\nexit 2\n`)
    await chmod(join(bin, 'npx'), 0o755)
    await runAction({ url: 'http://127.0.0.1:9/mcp', version: '1.2.3-rc.1' }, cwd, await actionCheckout('url', { built: false, except: ['node_modules'] }), { PATH: `${bin}${delimiter}${process.env.PATH}` })
    const argv = (await readFile(join(cwd, 'argv.txt'), 'utf8')).split('\n').slice(0, -1)
    expect(argv).toEqual(['--yes', '@mcp-bridge/conformance@1.2.3-rc.1', 'server', '--report-dir', 'mcp-conformance-reports', '--summary-md', join('mcp-conformance-reports', 'summary.md'), '--annotations', 'github', '--url', 'http://127.0.0.1:9/mcp'])
  })

  it.each([
    [{}, 'give command (a stdio server) or url (a Streamable HTTP server)'],
    [{ command: 'node x.js', url: 'http://127.0.0.1:9/mcp' }, 'give either command or url, not both'],
    [{ command: 'node x.js | tee log' }, 'command: unquoted | — the command is not run by a shell'],
    [{ command: 'node $HOME/x.js' }, 'command: unquoted $'],
    [{ command: `node 'x.js` }, `command: a ' quote is not closed`],
    [{ command: 'node x.js', args: '--timeout "5' }, 'args: a " quote is not closed'],
    [{ command: 'node x.js', version: 'latest' }, 'version "latest" is not an exact version such as 0.1.0 (no ranges or tags)'],
    [{ command: 'node x.js', version: '^0.1.0' }, 'version "^0.1.0" is not an exact version'],
  ])('inputs that make no run: %j exits 2 with an ::error annotation, a summary and the outputs', async (inputs, message) => {
    const cwd = await folder('bad-inputs')
    const guard = await guardBin()
    const run = await runAction(inputs, cwd, await actionCheckout(`bad-inputs-${Math.random().toString(36).slice(2)}`, { built: true }), { PATH: `${guard.bin}${delimiter}${process.env.PATH}` })
    expect(run.code).toBe(2)
    expect(annotations(run.stdout)).toEqual([expect.stringMatching(/^::error title=mcp-conformance action::/)])
    expect(run.stdout).toContain(message)
    expect(run.stderr).not.toContain('mcp-conformance action: "') // the kit was never started
    expect(await guard.ran()).toBe('')
    expect(run.outputs).toEqual({ ...NO_VERDICT })
    expect(run.summary).toMatch(/^## ⚠️ MCP conformance: could not run\n\nExit code 2: /)
  })

  it('a usage error of the kit (a bad calls line) is exit 2 with its reason as the annotation, a summary and the outputs', async () => {
    const cwd = await folder('kit-usage')
    const run = await runAction({ command: `node '${FIXTURE_BIN}' x.yaml`, calls: 'not-a-call' }, cwd, await actionCheckout('kit-usage', { built: true }))
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('mcp-conformance: --call "not-a-call" is not NAME=JSON\nrun `mcp-conformance --help` for usage\n')
    expect(annotations(run.stdout)).toEqual(['::error title=mcp-conformance action::the kit could not run: --call "not-a-call" is not NAME=JSON'])
    expect(run.outputs).toEqual({ ...NO_VERDICT })
    expect(run.summary).toContain('Exit code 2: the kit could not run: --call "not-a-call" is not NAME=JSON')
  })

  it('speaks to the runner with the kit\'s own escapes and headline', async () => {
    const github = (await import(pathToFileURL(join(ROOT, 'conformance/action/github.mjs')).href)) as { escapeData: (t: string) => string; escapeProperty: (t: string) => string }
    for (const text of ['50% done\r\nnext: a, b', '::error::forged', 'x ##[group] y', 'plain']) {
      expect(github.escapeData(text)).toBe(escapeData(text))
      expect(github.escapeProperty(text)).toBe(escapeProperty(text))
    }
    const run = (await readFile(join(ROOT, 'conformance/action/run.mjs'), 'utf8')).match(/COULD_NOT_RUN = '([^']+)'/)?.[1]
    expect(run).toBe(KIT_COULD_NOT_RUN)
  })
})

describe('the CI gate in conformance/README.md', () => {
  interface WorkflowStep {
    name?: string
    id?: string
    uses?: string
    run?: string
    if?: string
    with?: Record<string, string>
  }

  async function readmeBlock(marker: string): Promise<string> {
    const readme = await readFile(join(ROOT, 'conformance/README.md'), 'utf8')
    const match = new RegExp(`<!-- ${marker}:start -->\\s*\`\`\`yaml\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}:end -->`).exec(readme)
    if (!match?.[1]) throw new Error(`README has no ${marker} block`)
    return match[1]
  }

  async function gateStep(): Promise<{ gate: WorkflowStep; steps: WorkflowStep[] }> {
    const workflow = parse(await readmeBlock('ci-workflow')) as { jobs: Record<string, { steps: WorkflowStep[] }> }
    const steps = Object.values(workflow.jobs)[0]?.steps ?? []
    const gate = steps.find((s) => s.uses?.startsWith('mcp-bridge/mcp-bridge-kit@'))
    expect(gate?.with).toBeDefined()
    return { gate: gate!, steps }
  }

  /** The author's checkout: the built server at ./dist. */
  async function authorCheckout(name: string): Promise<string> {
    const cwd = await folder(name)
    await mkdir(join(cwd, 'dist'))
    await writeFile(join(cwd, 'dist', 'index.js'), `import ${JSON.stringify(pathToFileURL(serverEntry('server-memory')).href)}\n`)
    return cwd
  }

  it('its action step, run with its exact inputs, passes against a real server standing in for dist/index.js', async () => {
    const { gate, steps } = await gateStep()
    const cwd = await authorCheckout('readme')
    await writeFile(join(cwd, 'mcp-conformance-baseline.yaml'), await readmeBlock('ci-baseline'))
    const run = await runAction(gate.with!, cwd, await actionCheckout('readme', { built: true }), { MEMORY_FILE_PATH: join(cwd, 'memory.jsonl') })

    expect(run.stderr).toContain('Exit code 0')
    expect(run.code).toBe(0)
    const reportDir = join(cwd, run.outputs.report ?? '', '..')
    const report = JSON.parse(await readFile(join(reportDir, 'results.json'), 'utf8')) as RunReport
    expect(report.suites.map((s) => s.id)).toEqual(['server'])
    expect(report.suites[0]?.target).toBe('node dist/index.js')
    expect(run.outputs).toMatchObject({ 'exit-code': '0', passed: String(report.summary.pass), failed: '0', warnings: String(report.summary.warn) })
    expect(run.summary).toMatch(/^## ✅ MCP conformance: passed\n\nExit code 0: every check passed; warnings and skips are allowed\.\n/)

    // The artifact step keeps exactly the directory the action wrote, even when the gate fails.
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))
    expect(upload).toMatchObject({ if: 'always()' })
    expect(resolve(cwd, String(upload?.with?.path))).toBe(reportDir)
  })

  it('copied without its baseline file: an ::error on that file that says how to create one, exit 2, a summary and the outputs', async () => {
    const { gate } = await gateStep()
    const cwd = await authorCheckout('readme-no-baseline')
    const run = await runAction(gate.with!, cwd, await actionCheckout('readme-no-baseline', { built: true }), { MEMORY_FILE_PATH: join(cwd, 'memory.jsonl') })
    expect(run.code).toBe(2)
    const baseline = gate.with!.baseline!
    expect(annotations(run.stdout)).toEqual([expect.stringMatching(new RegExp(`^::error file=${baseline.replace(/\./g, '\\.')},title=mcp-conformance baseline::`))])
    expect(run.stdout).toContain(`--write-baseline ${baseline}`)
    expect(run.stdout).toContain('expectedFailures: []')
    expect(run.summary).toMatch(/^## ⚠️ MCP conformance: could not run\n\nExit code 2: the kit could not run: baseline /)
    expect(run.outputs).toEqual({ ...NO_VERDICT })
  })
})
