import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { makeTempDir } from '@mcp-bridge/process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Malformed scenario and behaviour files against both CLIs (issue 34, item 9): each is one line
 * naming the file, the place and the fix, and exit 2, never a stack trace. mcp-conformance reads
 * its scenarios from its package: it runs here as an installed copy (its dist and bin, the other
 * packages linked), whose scenarios/ folder holds the one malformed file under test.
 */
const repo = fileURLToPath(new URL('../..', import.meta.url))
const fixtureBin = join(repo, 'fixtures-server/bin/mcp-fixture.js')

/** The scenario is named after the file; each is wrong for both CLIs (mcp-fixture serves a scenario's server: section). */
const INPUTS: Array<[string, string | Buffer | 'directory']> = [
  ['bad-yaml', 'id: bad-yaml\nserver: { tools: [\n'],
  ['wrong-types', 'id: wrong-types\ntitle: t\nspec: [{ ref: r }]\nserver: { tools: 3 }\nsteps: 7\n'],
  ['unknown-key', 'id: unknown-key\ntitle: t\nspec: [{ ref: r }]\nserver: { tols: [] }\n'],
  ['missing-field', 'id: missing-field\nspec: [{ ref: r }]\nserver: { tools: [{ description: no name }] }\n'],
  ['binary-junk', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xff, 0xfe, 0x0a, 0x00, 0x13])],
  ['empty', ''],
  ['directory', 'directory'],
  ['key-with-a-line-break', 'id: key-with-a-line-break\ntitle: t\nspec: [{ ref: r }]\nserver: { "to\\nols\\u001b[2J": [] }\n'],
  ['duplicate-key', 'id: duplicate-key\nid: again\n'],
  ['two-documents', 'id: two-documents\n---\nid: two\n'],
  ['too-deep', `id: too-deep\nserver: ${'['.repeat(20_000)}\n`],
  ['a-list', '- id: a-list\n'],
]

let root: ReturnType<typeof makeTempDir>
/** The installed kit's scenarios folder. */
let scenarios: string
let kitBin: string

beforeAll(() => {
  root = makeTempDir('bad-input-files-')
  const modules = join(root.path, 'node_modules')
  mkdirSync(join(modules, '@mcp-bridge'), { recursive: true })
  for (const name of readdirSync(join(repo, 'node_modules'))) if (name !== '@mcp-bridge') symlinkSync(join(repo, 'node_modules', name), join(modules, name))
  for (const name of ['plugin', 'process', 'host', 'fixtures-server']) symlinkSync(join(repo, name), join(modules, '@mcp-bridge', name))
  const kit = join(modules, '@mcp-bridge', 'conformance')
  for (const part of ['package.json', 'bin', 'dist', 'examples']) cpSync(join(repo, 'conformance', part), join(kit, part), { recursive: true })
  scenarios = join(kit, 'scenarios')
  kitBin = join(kit, 'bin', 'mcp-conformance.js')
})
afterAll(() => root.remove())

/** Puts the one input in place (in the kit's scenarios folder, or anywhere for mcp-fixture); returns its path. */
function place(dir: string, name: string, content: string | Buffer): string {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${name}.yaml`)
  if (content === 'directory') mkdirSync(file)
  else writeFileSync(file, content)
  return file
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { cwd: root.path, timeout: 60_000 }, (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }))
    // mcp-fixture serves on stdin once its behaviour loads: none of these may get that far.
    child.stdin?.end()
  })
}

/** One line, the program's, naming the file, a place (its line, or what the file as a whole is) and the fix. */
function expectOneLine(stderr: string, program: string, file: string): void {
  expect(stderr.endsWith('\n')).toBe(true)
  expect(stderr.slice(0, -1)).not.toContain('\n')
  expect(stderr).not.toMatch(/\bat .*:\d+:\d+\)?$|Error:|node:internal/m)
  expect(stderr.startsWith(`${program}: `)).toBe(true)
  expect(stderr).toContain(file)
  expect(stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:\\d+(:\\d+)?: .+|: the file is empty|: it is a directory)`))
  // The fix: what to do, after the problem.
  expect(stderr).toMatch(/; (add|remove|give|fix|write|keep|flatten|rename|use|change)\b|: give the path of a file|; move it out/)
}

describe.each(INPUTS)('a malformed file: %s', (name, content) => {
  it('mcp-fixture <file>: one line naming the file, the place and the fix; exit 2', async () => {
    const file = place(join(root.path, 'behaviours'), name, content)
    const { code, stderr } = await run([fixtureBin, file])
    expectOneLine(stderr, 'mcp-fixture', file)
    expect(code).toBe(2)
  })

  it('mcp-conformance client, with it among the scenarios: one line naming the file, the place and the fix; exit 2', async () => {
    const file = place(scenarios, name, content)
    const { code, stderr } = await run([kitBin, 'client', '--scenario', name, '--report-dir', join(root.path, 'reports')])
    expectOneLine(stderr, 'mcp-conformance', file)
    expect(code).toBe(2)
  })
})

describe('every command that reads the scenarios refuses a malformed one before anything runs', () => {
  it.each([
    ['the default run', ['--report-dir', 'reports']],
    ['list', ['list']],
    ['judge --scenario', ['judge', '--wire', 'wire.jsonl', '--scenario', 'x', '--report-dir', 'reports']],
  ])('%s', async (_label, args) => {
    const file = place(scenarios, 'unknown-key', INPUTS[2]![1])
    writeFileSync(join(root.path, 'wire.jsonl'), '')
    const { code, stderr } = await run([kitBin, ...args])
    expectOneLine(stderr, 'mcp-conformance', file)
    expect(code).toBe(2)
  })

  it('mcp-fixture --json: the same line for inline JSON', async () => {
    const bad = await run([fixtureBin, '--json', '{"tools": [{"name": 1}]}'])
    expect(bad).toEqual({ code: 2, stderr: 'mcp-fixture: --json: tools[0].name: expected string, received number; give a string there\n' })
    const notJson = await run([fixtureBin, '--json', '{tools'])
    expect(notJson.code).toBe(2)
    expect(notJson.stderr).toMatch(/^mcp-fixture: --json: not JSON \(.*\); give the behaviour as one JSON object\n$/)
  })
})
