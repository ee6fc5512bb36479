/**
 * The TypeScript a user copies from the docs type-checks against the packed packages.
 *
 * Every ```ts block of HOSTING.md and the plugin README becomes a file in a fresh project where
 * the tarballs are installed (a block after `<!-- type-check: continues the example above -->` is
 * appended to the previous one, whose names it uses). They are checked with the tsconfig
 * `tsc --init` writes there (module nodenext, strict, skipLibCheck, ...; `types: ["node"]` as its
 * own comment says for Node): as is, it must still fail the way HOSTING says (cordis
 * 4.0.0-rc.10's declarations do not resolve under nodenext); with HOSTING's workaround merged in
 * (read from the page, not copied here), it must pass; so must a minimal `bundler` tsconfig, with
 * and without skipLibCheck.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { explain, REPO, run, type RunResult } from '../support/processes.ts'
import { packedProject, type PackedProject } from './packed-project.ts'

const DOCS = ['plugin/docs/HOSTING.md', 'plugin/README.md'] as const
const HOSTING = DOCS[0]
const CONTINUES = '<!-- type-check: continues the example above -->'
const WORKAROUND = '<!-- tsconfig: the nodenext workaround -->'
/** The symptom HOSTING quotes for nodenext, which the unpatched check must still show. */
const SYMPTOM = "TS2693: 'Context' only refers to a type, but is being used as a value here"

interface Example {
  file: string
  /** Where the block starts, for failure messages. */
  origin: string
  code: string
}

/** The ```ts blocks of one Markdown file, continuations appended to the block before them. */
function typescriptBlocks(doc: string, markdown: string): Example[] {
  const examples: Example[] = []
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm
  for (const match of markdown.matchAll(fence)) {
    if (match[1] !== 'ts' && match[1] !== 'typescript') continue
    const line = markdown.slice(0, match.index).split('\n').length
    const before = markdown.slice(0, match.index).trimEnd()
    if (before.endsWith(CONTINUES)) {
      const previous = examples.at(-1)
      if (!previous) throw new Error(`${doc}:${line}: "${CONTINUES}" has no TypeScript block above it`)
      previous.code += `\n// ${doc}:${line}\n${match[2]}`
      previous.origin += ` + ${line}`
      continue
    }
    const name = doc.replace(/\W+/g, '-').replace(/-md$/, '').toLowerCase()
    examples.push({ file: `${name}-${line}.ts`, origin: `${doc}:${line}`, code: match[2]! })
  }
  return examples
}

/** HOSTING's tsconfig workaround: the JSON block right after its marker. */
function workaround(markdown: string): { compilerOptions: Record<string, unknown> } {
  const at = markdown.indexOf(WORKAROUND)
  if (at < 0) throw new Error(`${HOSTING} has no "${WORKAROUND}" marker before its tsconfig workaround`)
  const block = /^\s*```json\n([\s\S]*?)\n```/.exec(markdown.slice(at + WORKAROUND.length))
  if (!block) throw new Error(`${HOSTING}: "${WORKAROUND}" is not directly followed by a \`\`\`json block`)
  return JSON.parse(block[1]!) as { compilerOptions: Record<string, unknown> }
}

let packed: PackedProject | undefined
let files: string[] = []
let hosting = ''
const results: Array<{ mode: string; result: RunResult }> = []

beforeAll(async () => {
  packed = await packedProject('mcp-bridge-ts-examples-', ['cordis', 'typescript', '@types/node'])
  const examples = DOCS.flatMap((doc) => typescriptBlocks(doc, readFileSync(join(REPO, doc), 'utf8')))
  for (const example of examples) writeFileSync(join(packed.project, example.file), `// ${example.origin}\n${example.code}`)
  files = examples.map((example) => example.file)
  hosting = readFileSync(join(REPO, HOSTING), 'utf8')
  const init = await tsc(['--init'])
  if (init.code !== 0) throw new Error(explain(init, 'tsc --init failed'))
}, 600_000)

afterAll(() => {
  // The figures the docs quote: how many diagnostics each mode gives.
  for (const { mode, result } of results) console.log(`${mode}: exit ${result.code}, ${diagnostics(result).length} diagnostics`)
  packed?.remove()
})

function tsc(args: string[]): Promise<RunResult> {
  const bin = join(packed!.project, 'node_modules/typescript/bin/tsc')
  return run(process.execPath, [bin, ...args], { cwd: packed!.project, env: packed!.env, timeoutMs: 180_000 })
}

async function check(mode: string, config: object, extra: string[] = []): Promise<RunResult> {
  const file = `tsconfig.${mode.replace(/\W+/g, '-')}.json`
  writeFileSync(join(packed!.project, file), JSON.stringify({ ...config, files }, null, 2))
  const result = await tsc(['-p', file, ...extra])
  results.push({ mode, result })
  return result
}

const diagnostics = (result: RunResult) => result.stdout.split('\n').filter((line) => /error TS\d+/.test(line))

/** What `tsc --init` wrote, plus @types/node (its own comment's advice for Node) and no output. */
const fromInit = (compilerOptions: Record<string, unknown> = {}) => ({ extends: './tsconfig.json', compilerOptions: { types: ['node'], noEmit: true, ...compilerOptions } })
const BUNDLER = { compilerOptions: { module: 'esnext', moduleResolution: 'bundler', target: 'ES2022', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] } }

describe('the TypeScript examples of the docs, against the packed packages', () => {
  it('are found: HOSTING has its two examples and the continuation, the README its two', () => {
    expect(files.filter((file) => file.startsWith('plugin-docs-hosting-'))).toHaveLength(2)
    expect(files.filter((file) => file.startsWith('plugin-readme-'))).toHaveLength(2)
  })

  it("type-check under tsc --init's nodenext tsconfig with HOSTING's workaround", async () => {
    const result = await check('nodenext + workaround', fromInit(workaround(hosting).compilerOptions))
    expect(diagnostics(result), explain(result)).toEqual([])
    expect(result.code, explain(result)).toBe(0)
  })

  it('type-check under a minimal bundler tsconfig, with and without skipLibCheck', async () => {
    const [skip, full] = await Promise.all([check('bundler', BUNDLER), check('bundler, no skipLibCheck', BUNDLER, ['--skipLibCheck', 'false'])])
    for (const result of [skip!, full!]) {
      expect(diagnostics(result), explain(result)).toEqual([])
      expect(result.code, explain(result)).toBe(0)
    }
  })

  it('fail under nodenext as is, the way HOSTING says (else its workaround is stale)', async () => {
    const [asIs, full] = await Promise.all([check('nodenext', fromInit()), check('nodenext, no skipLibCheck', fromInit(), ['--skipLibCheck', 'false'])])
    expect(hosting).toContain(SYMPTOM)
    for (const result of [asIs!, full!]) {
      expect(result.code, `${explain(result)}\nnodenext passes: cordis' declarations resolve now; drop the workaround from ${HOSTING}`).not.toBe(0)
      expect(result.stdout).toContain(SYMPTOM)
    }
    // Without skipLibCheck, the rest is cordis' own: its extension-less re-exports and their consequence in our declarations.
    const ours = diagnostics(full!).filter((line) => line.startsWith('node_modules/') && !/^node_modules\/cordis\/lib\/.*TS2834|^node_modules\/@mcp-bridge\/.*TS2305: Module '"cordis"'/.test(line))
    expect(ours, explain(full!)).toEqual([])
  })
})
