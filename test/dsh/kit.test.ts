/**
 * The kit judges the plugin inside the DeepSeek harness too: hosts/dsh/kit.mjs runs every client
 * scenario, over both transports, with the plugin hosted by dsh-tools' ToolRuntime
 * (conformance's createDshAdapter) instead of the reference registry, under Node 22 in a temp
 * project where hosts/dsh and the packed workspaces it needs are installed. The run must end as
 * hosts/dsh/kit.baseline.yaml says: every failure listed there (a difference of the host, each
 * with its reason), no other failure, no listed check passing again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { runLabel, suiteRunLabel } from '../../conformance/src/model.ts'
import { HOST_DIR, installDshProject, type DshProject } from '../support/dsh-project.ts'
import { childEnv, explain, killGroup, REPO, run, running } from '../support/processes.ts'

interface Results {
  exitCode: number
  staleBaseline: string[]
  summary: Record<'pass' | 'fail' | 'warn' | 'skip' | 'error', number>
  suites: Array<{ id: string; kind: string; target: string; transport?: string; checks: Array<{ id: string; status: string; expected?: boolean; message: string }> }>
}

let installed: DshProject | undefined
const timings: Array<{ what: string; ms: number }> = []

beforeAll(async () => {
  installed = await installDshProject(['plugin', 'host', 'fixtures-server', 'conformance'])
  timings.push(...installed.timings)
})

afterAll(() => {
  for (const pid of running) killGroup(pid)
  if (timings.length) console.log(`dsh kit timings:\n${timings.map(({ what, ms }) => `  ${String(ms).padStart(6)} ms  ${what}`).join('\n')}`)
  installed?.remove()
})

describe('the kit with the plugin hosted by dsh-tools (hosts/dsh/kit.mjs)', () => {
  it('runs every client scenario over both transports and ends exactly as the baseline explains', async () => {
    const reports = join(installed!.root, 'reports-dsh')
    const kit = await run(installed!.node22, ['kit.mjs', '--report-dir', reports], { cwd: installed!.project, env: installed!.env(), timeoutMs: 540_000 })
    timings.push({ what: 'node22 kit.mjs (every client scenario, stdio and http)', ms: kit.ms })
    expect(existsSync(join(reports, 'results.json')), explain(kit, 'no results.json')).toBe(true)
    const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results
    const failing = results.suites.flatMap((suite) =>
      suite.checks.filter((check) => (check.status === 'fail' && !check.expected) || check.status === 'error').map((check) => `${suite.id} [${suite.transport}] ${check.id}: ${check.message}`),
    )
    expect(failing, 'failures the dsh baseline does not explain').toEqual([])
    expect(results.staleBaseline, 'baseline entries that pass again under dsh: remove them (and their explanation)').toEqual([])
    expect(kit.code, explain(kit)).toBe(0)
    expect(results.exitCode).toBe(0)

    // Every scenario of the repository ran, each over the transports it declares, in this host.
    const scenarios = readdirSync(join(REPO, 'scenarios')).filter((file) => file.endsWith('.yaml') && !file.startsWith('_'))
    const runs = scenarios.flatMap((file) => {
      const { id, transports, eras } = parse(readFileSync(join(REPO, 'scenarios', file), 'utf8')) as { id: string; transports?: string[]; eras?: string[] }
      return (transports ?? ['stdio', 'http']).flatMap((transport) => (eras ?? ['legacy']).map((era) => `${id} [${runLabel(transport, era)}]`))
    })
    expect(results.suites.map((suite) => `${suite.id} [${suiteRunLabel(suite)}]`).sort()).toEqual(runs.sort())
    expect(new Set(results.suites.map((suite) => suite.target))).toEqual(new Set(['mcp-bridge (cordis plugin) hosted by dsh-tools ToolRuntime']))

    // Each expected failure is one the baseline lists with a reason.
    const baseline = parse(readFileSync(join(HOST_DIR, 'kit.baseline.yaml'), 'utf8')) as { expectedFailures: Array<{ id: string; reason: string }> }
    expect(baseline.expectedFailures.every((entry) => entry.reason.length > 10), 'every dsh baseline entry says why').toBe(true)
    const expected = new Set(results.suites.flatMap((suite) => suite.checks.filter((check) => check.expected).map((check) => `${suite.id}:${check.id}`)))
    expect([...expected].sort()).toEqual(baseline.expectedFailures.map((entry) => entry.id).sort())
    console.log(`dsh kit: ${results.summary.pass} passed, ${results.summary.fail} failed (all expected), ${results.suites.length} scenario runs`)
  }, 600_000) // the run bounds itself at 540 s; about 20 s on an idle machine, minutes on a loaded one

  it("stands beside the reference host's results in one report: mcp-conformance --merge dsh=<its results.json>", async () => {
    const dshResults = join(installed!.root, 'reports-dsh', 'results.json')
    expect(existsSync(dshResults), 'the run above wrote it').toBe(true)
    const dsh = JSON.parse(readFileSync(dshResults, 'utf8')) as Results
    const out = join(installed!.root, 'reports-both')
    const cli = join(REPO, 'conformance/bin/mcp-conformance.js')
    const both = await run(process.execPath, [cli, 'client', '--scenario', 'clean-discovery', '--report-dir', out, '--merge', `dsh=${dshResults}`], {
      cwd: installed!.root,
      env: childEnv(process.execPath),
      timeoutMs: 300_000,
    })
    timings.push({ what: 'mcp-conformance client --merge dsh=… (reference host, one scenario, both transports)', ms: both.ms })
    expect(both.code, explain(both)).toBe(0)
    const merged = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results
    // The reference host's runs first, then every dsh run under its label, with the dsh baseline's marks.
    expect(merged.suites.filter((suite) => !suite.id.startsWith('dsh/')).map((suite) => `${suite.id} [${suiteRunLabel(suite)}]`)).toEqual([
      'clean-discovery [stdio]',
      'clean-discovery [stdio.modern]',
      'clean-discovery [http]',
      'clean-discovery [http.modern]',
    ])
    expect(merged.suites.filter((suite) => suite.id.startsWith('dsh/')).map((suite) => `${suite.id} [${suiteRunLabel(suite)}]`)).toEqual(dsh.suites.map((suite) => `dsh/${suite.id} [${suiteRunLabel(suite)}]`))
    expect(new Set(merged.suites.map((suite) => suite.target))).toEqual(new Set(['mcp-bridge (cordis plugin)', ...dsh.suites.map((suite) => suite.target)]))
    const expectedMarks = (suites: Results['suites']) => suites.flatMap((suite) => suite.checks.filter((check) => check.expected)).length
    expect(expectedMarks(merged.suites)).toBe(expectedMarks(dsh.suites))
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('dsh/clean-discovery')
  })
})
