/**
 * The README's matrix workflow, run locally: real `mcp-conformance server` runs stand for the
 * matrix legs (each writes its reports as the action does), the workflow's own shard-listing step
 * (taken from the README block, run under bash as the runner runs it) turns the downloaded
 * artifacts into `--merge` options, and the last job's run merges them through the real CLI. The
 * merged results.json and junit.xml must carry every leg, and the exit code the worst verdict.
 */
import { spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { RunReport } from '../src/model.ts'
import { freePort } from './server-helpers.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const KIT = join(ROOT, 'conformance/bin/mcp-conformance.js')
const FIXTURE = join(ROOT, 'fixtures-server/bin/mcp-fixture.js')
const EXAMPLE = (name: string) => join(ROOT, 'fixtures-server/examples', `${name}.yaml`)
/** names.yaml lists a tool without an inputSchema: the one failure its legs get. */
const FAILING_CHECK = 'tools/input-schema'

interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

function runProcess(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ended> {
  return new Promise((done) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.once('close', (code) => done({ code, stdout, stderr }))
  })
}

const explain = (ended: Ended) => `exit ${ended.code}\n--- stderr ---\n${ended.stderr.slice(-3000)}\n--- stdout ---\n${ended.stdout.slice(-1000)}`

interface Step {
  id?: string
  run?: string
  uses?: string
  with?: Record<string, string>
}
interface Workflow {
  jobs: Record<string, { needs?: string; if?: string; strategy?: { matrix: { server: Array<{ name: string }> } }; steps: Step[] }>
}

async function matrixWorkflow(): Promise<Workflow> {
  const readme = await readFile(join(ROOT, 'conformance/README.md'), 'utf8')
  const match = /<!-- ci-matrix:start -->\s*```yaml\n([\s\S]*?)```\s*<!-- ci-matrix:end -->/.exec(readme)
  if (!match?.[1]) throw new Error('conformance/README.md has no ci-matrix block')
  return parse(match[1]) as Workflow
}

let work = ''
let workflow: Workflow
/** A leg's report directory, by label. */
const legs: Record<string, string> = {}

/** One matrix leg: the action's `server` run, reports in the directory the leg uploads. */
async function leg(label: string, target: string[], extra: string[] = []): Promise<void> {
  const dir = join(work, 'legs', label)
  const ended = await runProcess(process.execPath, [KIT, 'server', '--report-dir', dir, ...extra, ...target], work)
  if (!(await readFile(join(dir, 'results.json'), 'utf8').catch(() => ''))) throw new Error(`leg ${label} wrote no results.json\n${explain(ended)}`)
  legs[label] = dir
}

/** The merge job: the artifacts downloaded under shards/, the listing step run, then the kit with its args. */
async function mergeJob(labels: string[]): Promise<{ listing: Ended; args: string; merged?: Ended; report?: RunReport; junit?: string }> {
  const job = join(work, `merge-${labels.join('-')}`)
  for (const label of labels) await cp(legs[label] ?? join(work, 'legs', label), join(job, 'shards', `mcp-conformance-${label}`), { recursive: true })
  const listingStep = workflow.jobs.merge!.steps.find((step) => step.id === 'shards')!
  const output = join(job, 'github-output')
  await writeFile(output, '')
  // GitHub runs a `run:` step without `shell:` as `bash -e {0}`.
  const script = join(job, 'listing.sh')
  await writeFile(script, listingStep.run!)
  const listing = await runProcess('bash', ['-e', script], job, { ...process.env, GITHUB_OUTPUT: output })
  const args = /^args=(.*)$/m.exec(await readFile(output, 'utf8'))?.[1] ?? ''
  if (listing.code !== 0) return { listing, args }
  const reportDir = join(job, 'mcp-conformance-reports')
  // The action appends `args` (split into words) to its server command line, before `--`.
  const merged = await runProcess(process.execPath, [KIT, 'server', '--report-dir', reportDir, ...args.split(' ').filter(Boolean), '--', process.execPath, FIXTURE, EXAMPLE('pagination')], job)
  const report = JSON.parse(await readFile(join(reportDir, 'results.json'), 'utf8')) as RunReport
  return { listing, args, merged, report, junit: await readFile(join(reportDir, 'junit.xml'), 'utf8') }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'mcp-merge-shards-'))
  workflow = await matrixWorkflow()
  const baseline = join(work, 'known-baseline.yaml')
  await writeFile(baseline, `expectedFailures:\n  - id: server:${FAILING_CHECK}\n    reason: the fixture lists a tool without a schema\n`)
  const closed = await freePort()
  // Four legs at once, as a matrix runs them: passing, failing, failing as its baseline expects, and unreachable.
  await Promise.all([
    leg('pass', ['--', process.execPath, FIXTURE, EXAMPLE('pagination')]),
    leg('fail', ['--', process.execPath, FIXTURE, EXAMPLE('names')]),
    leg('known', ['--', process.execPath, FIXTURE, EXAMPLE('names')], ['--baseline', baseline]),
    leg('down', ['--url', `http://127.0.0.1:${closed}/mcp`]),
  ])
  // A leg whose kit could not run at all: a report directory without results.json.
  await mkdir(join(work, 'legs', 'broken'), { recursive: true })
  await writeFile(join(work, 'legs', 'broken', 'summary.md'), 'could not run\n')
}, 240_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

const suiteIds = (report: RunReport) => report.suites.map((suite) => suite.id).sort()
const check = (report: RunReport, suite: string, id: string) => report.suites.find((s) => s.id === suite)?.checks.find((c) => c.id === id)

describe('the matrix workflow in conformance/README.md', () => {
  it('is valid YAML of the documented shape: legs over a server list, a merge job after them all', () => {
    const { judge, merge } = workflow.jobs
    expect(judge?.strategy?.matrix.server.length).toBeGreaterThanOrEqual(2)
    expect(judge?.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'))?.with?.name).toBe('mcp-conformance-${{ matrix.server.name }}')
    expect(merge?.needs).toBe('judge')
    expect(merge?.steps.find((step) => step.uses?.startsWith('actions/download-artifact'))?.with).toMatchObject({ pattern: 'mcp-conformance-*', path: 'shards' })
    expect(merge?.steps.find((step) => step.uses?.startsWith('mcp-bridge/mcp-bridge-kit@'))?.with?.args).toBe('${{ steps.shards.outputs.args }}')
  })

  it('a passing and a failing leg: both merged into results.json and junit.xml, exit 1', async () => {
    const { listing, args, merged, report, junit } = await mergeJob(['pass', 'fail'])
    expect(listing.code, explain(listing)).toBe(0)
    expect(args).toBe(`--merge fail=shards/mcp-conformance-fail/results.json --merge pass=shards/mcp-conformance-pass/results.json`)
    expect(merged!.code, explain(merged!)).toBe(1)
    expect(report!.exitCode).toBe(1)
    expect(suiteIds(report!)).toEqual(['fail/server', 'pass/server', 'server'])
    expect(check(report!, 'fail/server', FAILING_CHECK)?.status).toBe('fail')
    expect(report!.summary.fail).toBe(1)
    for (const suite of ['server', 'pass/server', 'fail/server']) expect(junit).toContain(`<testsuite name="${suite}"`)
  })

  it("a leg's own baseline still decides: its expected failure is merged as expected, exit 0", async () => {
    const { merged, report } = await mergeJob(['pass', 'known'])
    expect(merged!.code, explain(merged!)).toBe(0)
    expect(check(report!, 'known/server', FAILING_CHECK)).toMatchObject({ status: 'fail', expected: true })
  })

  it('a leg that could not reach its server makes the merge exit 2, above a failure', async () => {
    const { merged, report } = await mergeJob(['pass', 'fail', 'down'])
    expect(merged!.code, explain(merged!)).toBe(2)
    expect(report!.exitCode).toBe(2)
    expect(suiteIds(report!)).toEqual(['down/server', 'fail/server', 'pass/server', 'server'])
  })

  it('a leg without results.json stops the listing step with an ::error naming it', async () => {
    const { listing } = await mergeJob(['pass', 'broken'])
    expect(listing.code).toBe(2)
    expect(listing.stdout).toContain('::error::leg broken wrote no results.json')
  })
})
