/**
 * The published tables as evidence: conformance/docs/CLIENTS.md and docs/COMPATIBILITY.md record
 * who was judged with which versions, by which kit and verdict code (a digest of the files
 * scripts/verdict-digest.mjs lists), and every cell that is not a pass carries the command that
 * reproduces it and the sentence it breached. Renderers are pure; these tests feed them fixtures.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { formatClients, reproduction as clientReproduction, revisionsOf, runsOf, type ClientRecord } from '../../clients/table.ts'
import { renderCompatibility, transportRecord, type ServerRecord } from '../../compat/render.mjs'
import { reproduction as serverReproduction } from '../../compat/repro.mjs'
import { mergeRecords, readProvenance, recordsJson, renderProvenance, sentence, shellWord, type RowProvenance } from '../../scripts/table-evidence.mjs'
import { digestOf, REPO_ROOT, TABLES, verdictDigest, type TableName } from '../../scripts/verdict-digest.mjs'
import { erasOf } from '../src/client/table.ts'
import type { CheckResult, SuiteResult } from '../src/model.ts'

/** Which published table is stale against the verdict code, and the command that fixes it (empty: none). */
function staleness(table: TableName): string {
  const { file, command } = TABLES[table]
  const rows = readProvenance(readFileSync(join(REPO_ROOT, file), 'utf8'))
  const { digest } = verdictDigest(table)
  if (!rows.length) return `${file} records no verdict digest (no provenance block); regenerate it with \`${command}\``
  const stale = rows.filter((row) => row.digest !== digest)
  if (!stale.length) return ''
  return `${file}: ${stale.map((row) => `${row.row} (${row.digest})`).join(', ')} judged by other verdict code than the current ${digest}; regenerate with \`${command}\` (or \`${command} -- ${stale.map((row) => shellWord(row.row.replace(/\\\|/g, '|'))).join(' ')}\` for those rows only)`
}

describe('the published tables are judged by the current verdict code', () => {
  // A change to what decides verdicts (scripts/verdict-digest.mjs) makes a table stale until it is
  // regenerated: the message names the rows and the command.
  it('conformance/docs/CLIENTS.md', () => {
    expect(staleness('clients'), 'the stale rows and the command that regenerates them').toBe('')
  })
  it('docs/COMPATIBILITY.md', () => {
    expect(staleness('servers'), 'the stale rows and the command that regenerates them').toBe('')
  })
})

describe('verdict digest (scripts/verdict-digest.mjs)', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const tree = (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'verdict-digest-'))
    dirs.push(root)
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true })
      writeFileSync(join(root, path), text)
    }
    return root
  }
  const LIST = ['src/rules.ts', 'src/registry/**', 'scenarios/*.yaml']

  it('changes with any listed file, and only with those', () => {
    const root = tree({ 'src/rules.ts': 'MUST', 'src/registry/a/b.ts': 'x', 'scenarios/s.yaml': 'y', 'scenarios/s.snap': 'z', 'src/other.ts': 'o' })
    const before = digestOf(LIST, root)
    expect(before.files).toEqual(['scenarios/s.yaml', 'src/registry/a/b.ts', 'src/rules.ts'])
    writeFileSync(join(root, 'src/other.ts'), 'changed')
    writeFileSync(join(root, 'scenarios/s.snap'), 'changed')
    expect(digestOf(LIST, root).digest).toBe(before.digest)
    writeFileSync(join(root, 'src/registry/a/b.ts'), 'changed')
    expect(digestOf(LIST, root).digest).not.toBe(before.digest)
  })

  it('covers new files under a listed directory and reads CRLF as LF', () => {
    const root = tree({ 'src/rules.ts': 'a\nb\n', 'src/registry/x.ts': 'x', 'scenarios/a.yaml': 'a' })
    const before = digestOf(LIST, root).digest
    writeFileSync(join(root, 'src/rules.ts'), 'a\r\nb\r\n')
    writeFileSync(join(root, 'scenarios-new.yaml'), 'outside')
    expect(digestOf(LIST, root).digest).toBe(before)
    writeFileSync(join(root, 'scenarios/new.yaml'), 'inside')
    expect(digestOf(LIST, root).digest).not.toBe(before)
    rmSync(join(root, 'scenarios/new.yaml'))
    mkdirSync(join(root, 'src/registry/deeper'))
    writeFileSync(join(root, 'src/registry/deeper/new.ts'), 'inside')
    expect(digestOf(LIST, root).digest).not.toBe(before)
  })

  it('names a listed file that is gone, and where the list lives', () => {
    const root = tree({ 'src/registry/x.ts': 'x', 'scenarios/a.yaml': 'a' })
    expect(() => digestOf(LIST, root)).toThrow('src/rules.ts does not exist; update the list in scripts/verdict-digest.mjs')
    expect(() => digestOf(['gone/*.yaml'], root)).toThrow('gone/*.yaml names no directory gone; update the list in scripts/verdict-digest.mjs')
  })

  it('lists only files that exist in this repository, verdict rules and scenarios among them', () => {
    expect(verdictDigest('clients').files).toEqual(expect.arrayContaining(['conformance/src/client/verdicts.ts', 'conformance/src/client/rules.ts', 'scenarios/pagination.yaml', 'clients/drivers/mastra.mjs']))
    expect(verdictDigest('servers').files).toEqual(expect.arrayContaining(['conformance/src/server/registry/rules.ts', 'conformance/src/server/evaluate/http.ts', 'compat/servers.mjs']))
  })
})

const provenanceOf = (row: string, digest = 'abcdef0123456789'): RowProvenance => ({
  row,
  packages: [`${row}@1.0.0`, '@modelcontextprotocol/sdk@1.32.2'],
  node: 'v22.23.5',
  ranAt: '2026-01-02 03:04',
  kit: '0.1.0',
  commit: '0123456789ab',
  dirty: false,
  digest,
})

describe('provenance block (scripts/table-evidence.mjs)', () => {
  it('records each row’s packages, Node, date, kit version, commit and digest, and reads the digests back', () => {
    const lines = renderProvenance([provenanceOf('a|b'), { ...provenanceOf('c', '9999999999999999'), dirty: true, ranAt: '2026-01-03 00:00' }], TABLES.clients)
    const text = lines.join('\n')
    expect(text).toContain('| a\\|b | `a|b@1.0.0`, `@modelcontextprotocol/sdk@1.32.2` | v22.23.5 | 2026-01-02 03:04 | 0.1.0 | `0123456789ab` | `abcdef0123456789` |')
    expect(text).toContain('`0123456789ab`+')
    expect(text).toContain('Run 2026-01-02 03:04 to 2026-01-03 00:00; kit commits `0123456789ab`, `0123456789ab+`; verdict digests `abcdef0123456789`, `9999999999999999`.')
    expect(text).toContain('`npm run clients`')
    expect(readProvenance(`# T\n\n${text}\n\n## Next\n\n| x | y | z |\n| --- | --- | --- |\n| 1 | 2 | 3 |\n`)).toEqual([
      { row: 'a\\|b', digest: 'abcdef0123456789' },
      { row: 'c', digest: '9999999999999999' },
    ])
    expect(readProvenance('# an old table without one\n')).toEqual([])
  })

  it('keeps the records not re-run, in list order, and drops ids no longer listed', () => {
    const kept = [{ id: 'a', v: 1 }, { id: 'b', v: 1 }, { id: 'gone', v: 1 }]
    expect(mergeRecords(kept, [{ id: 'b', v: 2 }], ['b', 'a', 'c'], (r) => r.id)).toEqual([{ id: 'b', v: 2 }, { id: 'a', v: 1 }])
  })

  it('stores records one run per line, and reads back the same value', () => {
    const value = { clients: [{ id: 'a', runs: [{ scenario: 's', notes: [] }, { scenario: 't', notes: [{ id: 'x' }] }] }] }
    const text = recordsJson(value, 4)
    expect(JSON.parse(text)).toEqual(value)
    expect(text.split('\n')).toContain('    {"scenario":"t","notes":[{"id":"x"}]}')
  })

  it('quotes the sentence once, with its citation', () => {
    expect(sentence({ ref: 'MCP 2025-11-25 §x (S): "It MUST."', url: 'https://spec/x', quote: 'It MUST.' })).toBe('“It MUST.” ([MCP 2025-11-25 §x (S)](https://spec/x))')
    expect(sentence({ ref: 'seed 000 §Naming' })).toBe('(seed 000 §Naming)')
    expect(sentence(undefined)).toBe('')
  })

  it('spells shell words a POSIX shell reads back unchanged', () => {
    expect(shellWord('node_modules/a/b.js')).toBe('node_modules/a/b.js')
    expect(shellWord(`it's $HOME`)).toBe(`'it'\\''s $HOME'`)
    expect(shellWord('p={"path":"{dir}/x $y"}')).toBe('"p={\\"path\\":\\"$d/x \\$y\\"}"')
  })
})

const check = (id: string, status: CheckResult['status'], message = 'seen', spec?: CheckResult['spec']): CheckResult => ({ id, title: id, status, message, ...(spec ? { spec } : {}) })
const suite = (id: string, transport: 'stdio' | 'http', checks: CheckResult[], asked?: string): SuiteResult => ({
  id,
  title: id,
  kind: 'client',
  target: 't',
  transport,
  checks,
  durationMs: 1,
  ...(asked ? { transcript: { text: '', events: [{ at: 0, kind: 'message', from: 'client', message: { id: 'c1', jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: asked } } }] } } : {}),
  ...(asked ? { spoke: ['legacy' as const] } : {}),
})
const MUST = { ref: 'MCP 2025-11-25 §basic/lifecycle: "It MUST be first."', url: 'https://spec/lifecycle', keyword: 'MUST', quote: 'It MUST be first.' }

describe('conformance/docs/CLIENTS.md (clients/table.ts)', () => {
  const theirs = [
    suite('s1', 'stdio', [check('x', 'pass'), check('expect/call-1', 'fail', 'expected an error,\n got | success', MUST), check('invariant/y', 'warn', 'slow')], '2025-06-18'),
    suite('s1', 'http', [check('x', 'pass')], '2025-11-25'),
    suite('s2', 'http', [check('applies/scenario', 'skip', 'not applicable: bridge only: names')]),
  ]
  const record = (id: string, suites: SuiteResult[], driver?: string): ClientRecord => ({
    id,
    name: id === 'ours' ? 'ours (bridge)' : '@x/client',
    about: 'driver | pinned',
    ...(driver ? { driver } : {}),
    revisions: revisionsOf(suites),
    era: erasOf(suites),
    provenance: provenanceOf(id),
    runs: runsOf(suites),
  })

  it('keeps each run’s cell, what did not hold and why a scenario did not apply, and the revisions asked for', () => {
    const runs = runsOf(theirs)
    expect(runs.map((r) => r.cell)).toEqual(['fail', 'pass', 'n/a'])
    expect(runs[0]!.notes.map((n) => `${n.status} ${n.id}`)).toEqual(['fail expect/call-1', 'warn invariant/y'])
    expect(runs[2]!.na).toBe('bridge only: names')
    expect(revisionsOf(theirs)).toEqual(['2025-06-18', '2025-11-25'])
  })

  it('counts the revision a modern request names in its _meta as asked for, and no legacy _meta', () => {
    const message = (method: string, version: string) => ({ at: 0, kind: 'message' as const, from: 'client' as const, message: { id: 'c2', jsonrpc: '2.0', method, params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version } } } })
    const modern = { ...suite('s1', 'stdio', []), transcript: { text: '', events: [message('server/discover', '2026-07-28'), message('tools/list', '2025-06-18')] } }
    expect(revisionsOf([modern, suite('s2', 'stdio', [], '2025-11-25')])).toEqual(['2025-11-25', '2026-07-28'])
  })

  it('gives a run at another era its own row: the era joins the transport', () => {
    const legacy = suite('s1', 'stdio', [check('x', 'pass')], '2025-11-25')
    const modern = { ...suite('s1', 'stdio', [check('x', 'warn', 'slow')]), era: 'modern' as const, spoke: ['modern' as const] }
    const runs = runsOf([legacy, modern])
    expect(runs.map((run) => run.era)).toEqual([undefined, 'modern'])
    const text = formatClients([record('theirs', [legacy, modern], 'node clients/drivers/x.mjs')], { intro: '# Title', findings: '', table: TABLES.clients })
    expect(text).toContain('| s1 [stdio] | ✅ pass |')
    expect(text).toMatch(/\| s1 \[stdio\.modern\] \| ⚠️ warn \[1\]/)
    expect(text).toContain('| @x/client | dual |')
  })

  it('reproduces a cell against that client alone: its driver, or the built-in adapter', () => {
    expect(clientReproduction({ driver: '$(node scripts/node22.mjs) clients/drivers/x.mjs' }, { scenario: 's1', transport: 'stdio' })).toBe(
      'npx mcp-conformance client --driver "$(node scripts/node22.mjs) clients/drivers/x.mjs" --scenario s1 --transport stdio',
    )
    expect(clientReproduction({}, { scenario: 's2', transport: 'http' })).toBe('npx mcp-conformance client --scenario s2 --transport http')
  })

  it('numbers every cell that is not a pass and follows the matrix with its command and the sentence quoted', () => {
    const ours = [suite('s1', 'stdio', [check('x', 'pass')]), suite('s1', 'http', [check('x', 'pass')]), suite('s2', 'http', [check('x', 'warn', 'late')])]
    const text = formatClients([record('ours', ours), record('theirs', theirs, 'node clients/drivers/x.mjs')], { intro: '# Title', findings: '## Findings\n\nby hand', table: TABLES.clients })
    expect(text).toContain('| s1 [stdio] | ✅ pass | ❌ fail [2](#n2) |')
    expect(text).toContain('| s2 [http] | ⚠️ warn [1](#n1) | ➖ n/a |')
    expect(text).toContain('- <a id="n1"></a>**1** · warn · s2 [http]: `npx mcp-conformance client --scenario s2 --transport http`')
    expect(text).toContain('- <a id="n2"></a>**2** · fail · s1 [stdio]: `npx mcp-conformance client --driver "node clients/drivers/x.mjs" --scenario s1 --transport stdio`')
    expect(text).toContain('  - fail `expect/call-1`: expected an error, got \\| success “It MUST be first.” ([MCP 2025-11-25 §basic/lifecycle](https://spec/lifecycle))')
    // The era a client spoke: legacy here, as it initialized in every run.
    expect(text).toContain('| @x/client | legacy | 2025-06-18, 2025-11-25 | driver \\| pinned |')
    expect(text).toContain('| theirs | `theirs@1.0.0`, `@modelcontextprotocol/sdk@1.32.2` | v22.23.5 | 2026-01-02 03:04 | 0.1.0 | `0123456789ab` | `abcdef0123456789` |')
    expect(text).toContain('| @x/client | 1 | 1 | 0 | 1 | 0 |')
    expect(text).toContain('- s2: bridge only: names')
    expect(text.trimEnd().endsWith('by hand')).toBe(true)
  })
})

describe('docs/COMPATIBILITY.md (compat/render.mjs, compat/repro.mjs)', () => {
  const OPTIONS = { requestTimeoutMs: 15_000, startupTimeoutMs: 60_000 }
  const memory = { id: 'mem', stdio: { argv: ['node_modules/m/index.js'], env: { FILE: '{dir}/m.jsonl' } }, calls: [{ name: 'read', arguments: { path: '{dir}/hello.txt' } }] }
  const web = { id: 'web', http: { argv: ['node_modules/w/cli.js', '--port', '{port}'], path: '/mcp', host: 'localhost' } }

  it('reproduces a set-up alone, with the server’s own command, in a temp dir as the matrix runs it', () => {
    expect(serverReproduction(memory, 'stdio', OPTIONS)).toBe(
      'r=$PWD d=$(mktemp -d) && echo hello > "$d/hello.txt" && cd "$d" && FILE="$d/m.jsonl" "$r/node_modules/.bin/mcp-conformance" server --timeout 15000 --startup-timeout 60000 --call "read={\\"path\\":\\"$d/hello.txt\\"}" -- node "$r/compat/node_modules/m/index.js"',
    )
    expect(serverReproduction(web, 'http', OPTIONS)).toBe(
      'r=$PWD d=$(mktemp -d) && echo hello > "$d/hello.txt" && cd "$d" && { node "$r/compat/node_modules/w/cli.js" --port 39071 & } && until (: >/dev/tcp/localhost/39071) 2>/dev/null; do sleep 0.2; done; "$r/node_modules/.bin/mcp-conformance" server --timeout 15000 --startup-timeout 60000 --url http://localhost:39071/mcp ; kill $!',
    )
  })

  it('links every fail and warn count to its row, which starts with the command and quotes each sentence', () => {
    const http = transportRecord({
      transport: 'http',
      dir: '/tmp/mcp-compat-1',
      command: 'REPRO',
      modern: true,
      suite: {
        checks: [
          { id: 'lifecycle/protocol-version', status: 'pass', message: 'ok', details: { negotiated: '2025-06-18' } },
          { id: 'http/origin', status: 'fail', message: 'served /tmp/mcp-compat-1/x on 127.0.0.1:4242', spec: MUST, wire: [{ dir: 'client→server', message: { id: 1 }, http: { method: 'POST', headers: { origin: 'http://evil' } } }] },
          { id: 'http/sse', status: 'warn', message: 'no priming', spec: { ref: 'MCP §t: SHOULD', quote: 'It SHOULD prime.' } },
          { id: 'tools/unknown', status: 'skip', message: 'Information (no requirement): isError' },
          { id: 'prompts/list', status: 'skip', message: 'not declared' },
        ],
      },
    })
    expect(http.counts).toEqual({ pass: 1, fail: 1, warn: 1, skip: 1, information: 1, error: 0 })
    expect(http.revision).toBe('2025-06-18')
    const infoOnly = transportRecord({ transport: 'stdio', dir: '/d', command: 'QUIET', suite: { checks: [{ id: 'tools/unknown', status: 'skip', message: 'Information: x' }] } })
    const records: ServerRecord[] = [{ server: 'web', version: '1.2.3', provenance: provenanceOf('web'), transports: [infoOnly, http] }]
    const text = renderCompatibility(records, TABLES.servers)
    expect(text).toContain('| web | 1.2.3 | http | 2025-06-18 | dual | 1 | [1](#r2) | [1](#r2) | 1 | 1 | 0 |')
    expect(text).toContain('| web | 1.2.3 | stdio | — | — | 0 | 0 | 0 | 0 | 1 | 0 |')
    expect(text).toContain('### <a id="r2"></a>web 1.2.3 over http\n\nReproduce: `REPRO`')
    expect(text).not.toContain('QUIET')
    expect(text).toContain('- **fail** `http/origin`: served <dir>/x on 127.0.0.1:<port> “It MUST be first.” ([MCP 2025-11-25 §basic/lifecycle](https://spec/lifecycle))')
    expect(text).toContain('  → POST [origin: http://evil] {"id":1}')
    expect(text).toContain('- **warn** `http/sse`: no priming “It SHOULD prime.” (MCP §t: SHOULD)')
    expect(text).toContain('| web | `web@1.0.0`, `@modelcontextprotocol/sdk@1.32.2` | v22.23.5 |')
    expect(text).toContain('`npm run matrix -- <id>`')
  })
})
