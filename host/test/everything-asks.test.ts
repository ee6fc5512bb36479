/**
 * server-everything's elicitation and roots tools through the reference file host, as
 * `mcp-bridge call` runs them (its sampling tool: sampling-prompt.test.ts). The person at the
 * terminal is scripted; everything else is real: the loader, the plugin, server-everything over
 * stdio. server-everything registers these tools only for a client that declared the capability,
 * so "refused cleanly without" is the tool's absence: nothing is declared that is not offered.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { terminalElicitation } from '../src/elicitation.ts'
import { createFileHost, type FileHost } from '../src/loader/host.ts'

const require = createRequire(import.meta.url)
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const FORM_TOOL = 'mcp__everything__trigger-elicitation-request'
const URL_TOOL = 'mcp__everything__trigger-url-elicitation'
const ROOTS_TOOL = 'mcp__everything__get-roots-list'
// server-everything lists its late tools after `initialized`, this one always: once it is there,
// the absence of a capability-gated one means the capability was not declared.
const LATE_TOOL = 'mcp__everything__simulate-research-query'

interface Run {
  host: FileHost
  file: string
  /** What the terminal prompt wrote (the CLI's stderr). */
  shown: () => string
  /** Types lines at the terminal. */
  type: (lines: string[]) => void
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

type Result = { isError: boolean; content?: Array<{ text?: string }>; error?: { message: string } }
const text = (result: unknown) => ((result as Result).content ?? []).map((block) => block.text ?? '').join('\n')

/** A file host running server-everything with `extra` in its entry; `terminal`: the person is at a terminal. */
async function start(extra: Record<string, unknown>, options: { elicitation?: boolean; terminal?: boolean } = {}): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), 'everything-asks-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'cordis.yml')
  await writeEntry(file, extra)
  const input = Object.assign(new PassThrough(), { isTTY: options.terminal ?? true })
  const output = new PassThrough()
  let shown = ''
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()))
  const elicitation = options.elicitation === false ? undefined : terminalElicitation({ input, output })
  const host = await createFileHost({ file, logging: false, signals: false, ...(elicitation && { elicitation }) })
  cleanups.push(() => host.dispose())
  await expect.poll(() => host.tools.get(LATE_TOOL) !== undefined, { timeout: 20_000 }).toBe(true)
  return { host, file, shown: () => shown, type: (lines) => void input.write(lines.map((line) => `${line}\n`).join('')) }
}

function writeEntry(file: string, extra: Record<string, unknown>) {
  const config = { serverName: 'everything', transport: 'stdio', command: process.execPath, args: [everything, 'stdio'], ...extra }
  return writeFile(file, stringify([{ id: 'everything', name: '@mcp-bridge/plugin', config }]))
}

describe("server-everything's elicitation tools through the reference host", () => {
  it('a form answered field by field at the terminal reaches the server, with the defaults the person kept', async () => {
    const run = await start({})
    expect(run.host.tools.get(URL_TOOL)).toBeDefined()
    // Its 13 fields in order: name, check, firstLine, email, homepage, birthdate, integer, number,
    // four enums and a legacy titled enum. Enter keeps a default or leaves an optional field out.
    run.type(['y', 'Ada', 'y', '', 'ada@example.com', '', '', '7', '', '2', '', '', '', '', 'y'])
    const result = await run.host.tools.execute(FORM_TOOL, {})
    expect(run.shown()).toContain('MCP server "everything" asks: Please provide inputs for the following fields:')
    const said = text(result)
    expect(said).toContain('User provided the requested information!')
    expect(said).toMatch(/- Name: Ada\n- Agreed to terms: true\n- Email: ada@example.com\n- Favorite Integer: 7\n- Favorite Number: 3.14/)
    // The raw answer as the server shows it: typed values, the option picked by number, and the
    // defaults of the fields left empty (applied by the bridge, SEP-1034, and by this server too).
    const raw = JSON.parse(said.slice(said.indexOf('{'))) as { action: string; content: Record<string, unknown> }
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        email: 'ada@example.com',
        integer: 7,
        number: 3.14,
        untitledSingleSelectEnum: 'Rachel',
        untitledMultipleSelectEnum: ['Guitar'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-1',
      },
    })
  })

  it('declined at the terminal: the server hears decline', async () => {
    const run = await start({})
    run.type(['n'])
    expect(text(await run.host.tools.execute(FORM_TOOL, {}))).toContain('User declined to provide the requested information.')
  })

  it('a URL is shown with its host and never opened; accepting tells the server the person went', async () => {
    const run = await start({})
    run.type(['y'])
    const result = await run.host.tools.execute(URL_TOOL, { url: 'https://example.com/verify?step=1', message: 'Verify your account' })
    expect(run.shown()).toContain('It asks you to open this URL yourself (host example.com); nothing is opened for you:\n  https://example.com/verify?step=1')
    expect(text(result)).toContain('User completed the URL elicitation flow.')
  })

  it('no terminal (a pipe, CI): every question is declined without asking', async () => {
    const run = await start({}, { terminal: false })
    expect(text(await run.host.tools.execute(FORM_TOOL, {}))).toContain('User declined')
    expect(run.shown()).toBe('')
  })

  it('no elicitation service: no capability is declared, so server-everything offers neither tool', async () => {
    const run = await start({}, { elicitation: false })
    expect(run.host.tools.get(FORM_TOOL)).toBeUndefined()
    expect(run.host.tools.get(URL_TOOL)).toBeUndefined()
  })
})

describe("server-everything's roots tool through the reference host", () => {
  it('lists the configured roots, and a reload that changes only them keeps the connection and the server', async () => {
    const run = await start({ roots: [{ uri: 'file:///srv/project-a', name: 'Project A' }] }, { elicitation: false })
    expect(text(await run.host.tools.execute(ROOTS_TOOL, {}))).toContain('Current MCP Roots (1 total):\n\n1. Project A\n   URI: file:///srv/project-a')
    const before = run.host.status.get('everything')
    expect(before?.state.kind).toBe('connected')
    await writeEntry(run.file, { roots: [{ uri: 'file:///srv/project-b' }, { uri: 'file:///srv/project-c', name: 'C' }] })
    expect((await run.host.loader.reload()).errors).toEqual([])
    // notifications/roots/list_changed makes the server ask roots/list again, in its own time: the
    // new list, from the same process.
    await expect
      .poll(async () => text(await run.host.tools.execute(ROOTS_TOOL, {})), { timeout: 20_000 })
      .toContain('Current MCP Roots (2 total):\n\n1. Unnamed Root\n   URI: file:///srv/project-b\n\n2. C\n   URI: file:///srv/project-c')
    expect(run.host.status.get('everything')).toEqual(before)
  })

  it('no roots configured: no capability is declared, so server-everything does not offer the tool', async () => {
    const run = await start({}, { elicitation: false })
    expect(run.host.tools.get(ROOTS_TOOL)).toBeUndefined()
  })
})
