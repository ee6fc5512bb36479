/**
 * The repository's action.yml, run locally the way GitHub's runner runs a composite action: each
 * step's `env:` with its `${{ inputs.* }}` filled in (defaults from action.yml), its `run:` under
 * `bash -eo pipefail`, GITHUB_ACTION_PATH at the repository root, GITHUB_STEP_SUMMARY and
 * GITHUB_OUTPUT in a temp dir. The kit comes from MCP_CONFORMANCE_KIT (the local build) or from a
 * fake `npx` on PATH that records its arguments; nothing is downloaded.
 */
import { spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { RunReport } from '../src/model.ts'
import { serverEntry } from './server-helpers.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const LOCAL_KIT = `node '${join(ROOT, 'conformance/bin/mcp-conformance.js')}'`
const FIXTURE_BIN = join(ROOT, 'fixtures-server/bin/mcp-fixture.js')

interface ActionStep {
  id?: string
  shell?: string
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
  /** What the step appended to GITHUB_STEP_SUMMARY (after the line an earlier step left there). */
  summary: string
  /** GITHUB_OUTPUT as key → value. */
  outputs: Record<string, string>
}

/** Runs every step of action.yml with these `with:` inputs, in `cwd` (the user's workspace). */
async function runAction(inputs: Record<string, string>, cwd: string, env: Record<string, string> = {}): Promise<ActionRun> {
  const action = await loadAction()
  for (const name of Object.keys(inputs)) if (!(name in action.inputs)) throw new Error(`action.yml has no input "${name}"`)
  const fill = (text: string) => {
    const filled = text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => inputs[name] ?? action.inputs[name]?.default ?? '')
    if (filled.includes('${{')) throw new Error(`this local runner knows only \${{ inputs.* }}: ${text}`)
    return filled
  }
  const github = await mkdtemp(join(tmpdir(), 'mcp-action-runner-'))
  const summaryFile = join(github, 'step-summary.md')
  const outputFile = join(github, 'output')
  await writeFile(summaryFile, 'from an earlier step\n')
  await writeFile(outputFile, '')
  let last: Omit<ActionRun, 'summary' | 'outputs'> = { code: 0, stdout: '', stderr: '' }
  try {
    for (const step of action.runs.steps) {
      expect(step.shell).toBe('bash')
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, fill(String(value))]))
      const runnerEnv = { GITHUB_ACTION_PATH: ROOT, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile }
      // GitHub's own invocation for `shell: bash`.
      last = await spawnCapture('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', fill(step.run ?? '')], cwd, { ...process.env, ...env, ...stepEnv, ...runnerEnv })
      if (last.code !== 0) break
    }
    const summary = await readFile(summaryFile, 'utf8')
    expect(summary.startsWith('from an earlier step\n')).toBe(true) // appended, never overwritten
    const outputs = Object.fromEntries((await readFile(outputFile, 'utf8')).split('\n').filter(Boolean).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]))
    return { ...last, summary: summary.slice('from an earlier step\n'.length), outputs }
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

describe('action.yml', () => {
  it('declares the documented inputs and outputs; version defaults to this package version', async () => {
    const action = await loadAction()
    expect(Object.keys(action.inputs).sort()).toEqual(['args', 'baseline', 'calls', 'command', 'report-dir', 'url', 'version'])
    expect(Object.values(action.inputs).every((i) => !i.required)).toBe(true)
    expect(action.inputs['report-dir']?.default).toBe('mcp-conformance-reports')
    const pkg = JSON.parse(await readFile(join(ROOT, 'conformance/package.json'), 'utf8')) as { name: string; version: string }
    expect(pkg.name).toBe('@mcp-bridge/conformance')
    expect(String(action.inputs.version?.default)).toBe(pkg.version)
    expect(Object.keys(action.outputs).sort()).toEqual(['failed', 'passed', 'report', 'warnings'])
    expect(action.runs.using).toBe('composite')
    // Inputs reach the script only through the environment, never spliced into the shell line.
    for (const step of action.runs.steps) expect(step.run).not.toContain('${{')
  })

  it('runs `npx --yes @mcp-bridge/conformance@<version> server ...` built from the inputs, and exits with its code', async () => {
    const cwd = await folder('fake-npx')
    const bin = await folder('fake-npx-bin')
    // A stand-in npx: records its argv one per line and exits 3, a code the kit never uses.
    await writeFile(join(bin, 'npx'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(cwd, 'argv.txt')}'\nexit 3\n`)
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
      { PATH: `${bin}${delimiter}${process.env.PATH}`, MCP_CONFORMANCE_KIT: '' },
    )
    expect(run.code).toBe(3)
    const argv = (await readFile(join(cwd, 'argv.txt'), 'utf8')).split('\n').slice(0, -1)
    expect(argv).toEqual([
      '--yes', '@mcp-bridge/conformance@9.9.9',
      'server', '--report-dir', 'mcp-conformance-reports', '--summary-md', join('mcp-conformance-reports', 'summary.md'), '--annotations', 'github',
      '--baseline', 'conformance-baseline.yaml',
      '--call', 'echo={"message":"hi there"}', '--call', 'add={"a":1,"b":2}',
      '--timeout', '20000', '--header', 'Authorization=Bearer x y',
      '--', 'node', 'dist/my server.js', '--flag=a b', "it's", 'last',
    ])
    // No results: no outputs and nothing on the job page.
    expect(run.outputs).toEqual({})
    expect(run.summary).toBe('')
  })

  it('a url makes `--url URL` instead of a command', async () => {
    const cwd = await folder('fake-npx-url')
    const run = await runAction({ url: 'http://127.0.0.1:9/mcp' }, cwd, { MCP_CONFORMANCE_KIT: `node -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' --` })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual(['server', '--report-dir', 'mcp-conformance-reports', '--summary-md', join('mcp-conformance-reports', 'summary.md'), '--annotations', 'github', '--url', 'http://127.0.0.1:9/mcp'])
  })

  it.each([
    [{}, 'give command (a stdio server) or url (a Streamable HTTP server)'],
    [{ command: 'node x.js', url: 'http://127.0.0.1:9/mcp' }, 'give either command or url, not both'],
    [{ command: 'node x.js | tee log' }, 'command: unquoted | — the command is not run by a shell'],
    [{ command: 'node $HOME/x.js' }, 'command: unquoted $'],
    [{ command: `node 'x.js` }, `command: a ' quote is not closed`],
    [{ command: 'node x.js', args: '--timeout "5' }, 'args: a " quote is not closed'],
  ])('inputs that make no run: %j exits 2 with an ::error annotation', async (inputs, message) => {
    const cwd = await folder('bad-inputs')
    const run = await runAction(inputs, cwd, { MCP_CONFORMANCE_KIT: `node -e 'process.stdout.write("the kit ran")'` })
    expect(run.code).toBe(2)
    expect(annotations(run.stdout)).toEqual([expect.stringMatching(/^::error title=mcp-conformance action::/)])
    expect(run.stdout).toContain(message)
    expect(run.stdout).not.toContain('the kit ran')
    expect(run.outputs).toEqual({})
  })

  it('against a real fixture server: the job-page summary, the outputs and the annotations match results.json', async () => {
    const cwd = await folder('fixture')
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
    const run = await runAction(
      { command: `node '${FIXTURE_BIN}' "my server/behaviour.yaml"`, calls: 'echo={"message":"hi"}', baseline: 'baseline.yaml', args: '--server-name action-test' },
      cwd,
      { MCP_CONFORMANCE_KIT: LOCAL_KIT },
    )
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
    expect(run.outputs).toEqual({ passed: String(s.pass), failed: String(s.fail), warnings: String(s.warn), report: join('mcp-conformance-reports', 'report.html') })
    expect((await stat(join(cwd, run.outputs.report!))).isFile()).toBe(true)

    expect(run.summary).toMatch(/^## ❌ MCP conformance: failed\n\nExit code 1: 1 check failed that the baseline does not expect\.\n/)
    expect(run.summary).toContain(`| ${s.pass} | ${s.fail} (1 expected by the baseline) | ${s.warn} | ${s.skip} | ${s.error} |`)
    expect(run.summary).toContain('| fail (expected by the baseline) | server\\:tools\\/call\\-invalid\\-arguments |')
    expect(run.summary).toContain('| fail | server\\:tools\\/input\\-schema |')
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

  it('a usage error of the kit (a bad calls line) passes through as exit 2 with no outputs', async () => {
    const cwd = await folder('kit-usage')
    const run = await runAction({ command: `node '${FIXTURE_BIN}' x.yaml`, calls: 'not-a-call' }, cwd, { MCP_CONFORMANCE_KIT: LOCAL_KIT })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('mcp-conformance: --call "not-a-call" is not NAME=JSON\nrun `mcp-conformance --help` for usage\n')
    expect(run.outputs).toEqual({})
    expect(run.summary).toBe('')
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

  it('its action step, run with its exact inputs, passes against a real server standing in for dist/index.js', async () => {
    const workflow = parse(await readmeBlock('ci-workflow')) as { jobs: Record<string, { steps: WorkflowStep[] }> }
    const steps = Object.values(workflow.jobs)[0]?.steps ?? []
    const gate = steps.find((s) => s.uses?.startsWith('mcp-bridge/mcp-bridge-kit@'))
    expect(gate?.with).toBeDefined()

    // The author's checkout: the built server at ./dist, the baseline at the root.
    const cwd = await folder('readme')
    await mkdir(join(cwd, 'dist'))
    await writeFile(join(cwd, 'dist', 'index.js'), `import ${JSON.stringify(pathToFileURL(serverEntry('server-memory')).href)}\n`)
    await writeFile(join(cwd, 'mcp-conformance-baseline.yaml'), await readmeBlock('ci-baseline'))
    const run = await runAction(gate!.with!, cwd, { MCP_CONFORMANCE_KIT: LOCAL_KIT, MEMORY_FILE_PATH: join(cwd, 'memory.jsonl') })

    expect(run.stderr).toContain('Exit code 0')
    expect(run.code).toBe(0)
    const reportDir = join(cwd, run.outputs.report ?? '', '..')
    const report = JSON.parse(await readFile(join(reportDir, 'results.json'), 'utf8')) as RunReport
    expect(report.suites.map((s) => s.id)).toEqual(['server'])
    expect(report.suites[0]?.target).toBe('node dist/index.js')
    expect(run.outputs).toMatchObject({ passed: String(report.summary.pass), failed: '0', warnings: String(report.summary.warn) })
    expect(run.summary).toMatch(/^## ✅ MCP conformance: passed\n\nExit code 0: every check passed; warnings and skips are allowed\.\n/)

    // The artifact step keeps exactly the directory the action wrote, even when the gate fails.
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))
    expect(upload).toMatchObject({ if: 'always()' })
    expect(resolve(cwd, String(upload?.with?.path))).toBe(reportDir)
  })
})
