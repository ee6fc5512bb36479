/**
 * The CI example in conformance/README.md, run as written: the workflow's `run:` line executes
 * unchanged (bash -e, like GitHub Actions) in a directory laid out like the author's checkout,
 * against a local server standing in for `node dist/index.js`.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { RunReport } from '../src/model.ts'
import { serverEntry } from './server-helpers.ts'

const ROOT = resolve(import.meta.dirname, '../..')

interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, unknown>
}

async function readmeBlock(marker: string): Promise<string> {
  const readme = await readFile(join(ROOT, 'conformance/README.md'), 'utf8')
  const match = new RegExp(`<!-- ${marker}:start -->\\s*\`\`\`yaml\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}:end -->`).exec(readme)
  if (!match?.[1]) throw new Error(`README has no ${marker} block`)
  return match[1]
}

function runShell(line: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-e', '-c', line], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('close', (code) => done({ code, stderr }))
  })
}

describe('the README CI gate', () => {
  let workspace: string
  let steps: Step[]
  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'mcp-conformance-ci-'))
    const workflow = parse(await readmeBlock('ci-workflow')) as { jobs: Record<string, { steps: Step[] }> }
    steps = Object.values(workflow.jobs)[0]?.steps ?? []
  })
  afterAll(() => rm(workspace, { recursive: true, force: true }))

  it('is keyless and keeps the reports even when the gate fails', () => {
    expect(JSON.stringify(steps)).not.toMatch(/secrets\.|token/i)
    const kit = steps.find((s) => s.uses?.startsWith('actions/checkout') && s.with?.path === 'mcp-kit')
    expect(kit).toBeDefined()
    expect(steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))).toMatchObject({ if: 'always()', with: { path: 'mcp-conformance/' } })
  })

  it('its exact run line passes against a real server standing in for dist/index.js', async () => {
    const step = steps.find((s) => s.name === 'Run MCP conformance')
    expect(step?.run).toBeDefined()
    // The author's checkout: the kit checked out at ./mcp-kit, the built server at ./dist, the baseline at the root.
    await symlink(ROOT, join(workspace, 'mcp-kit'), 'dir')
    await mkdir(join(workspace, 'dist'))
    await writeFile(join(workspace, 'dist', 'index.js'), `import ${JSON.stringify(pathToFileURL(serverEntry('server-memory')).href)}\n`)
    await writeFile(join(workspace, 'mcp-conformance-baseline.yaml'), await readmeBlock('ci-baseline'))

    const { code, stderr } = await runShell(step!.run!, workspace, { MEMORY_FILE_PATH: join(workspace, 'memory.jsonl') })
    expect(stderr).toContain('Exit code 0')
    expect(code).toBe(0)
    const report = JSON.parse(await readFile(join(workspace, 'mcp-conformance', 'results.json'), 'utf8')) as RunReport
    expect(report.suites.map((s) => s.id)).toEqual(['server'])
    expect(report.summary.error).toBe(0)
    expect(report.suites[0]?.target).toBe('node dist/index.js')
    expect(await readFile(join(workspace, 'mcp-conformance', 'junit.xml'), 'utf8')).toContain('<testsuite name="server"')
  })
})
