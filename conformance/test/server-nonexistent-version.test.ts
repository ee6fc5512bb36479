/**
 * A server that answers initialize with a protocolVersion no revision of the spec has: its fault,
 * judged under the version-negotiation sentence (fail, exit 1), never a harness error (exit 2),
 * and never a pass from one check beside a fail or an error from another. A real stdio server
 * process, scripted in this file, answered by the real CLI.
 */
import { lineServerSource } from './support/line-server.ts'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckResult } from '../src/model.ts'
import { main, type Io } from '../src/cli.ts'

// Answers every initialize with `version`, ping with {}, any other request with -32601.
const SERVER = lineServerSource(
  'const version = process.argv[2]',
  `message.method === 'initialize'
      ? { result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 'odd-version', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} } : { error: { code: -32601, message: 'Method not found' } }`,
)

let dir: string
let script: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-odd-version-'))
  script = join(dir, 'server.mjs')
  await writeFile(script, SERVER)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function run(version: string): Promise<{ code: number; checks: CheckResult[] }> {
  const out = join(dir, version)
  const io: Io = { stdout: () => {}, stderr: () => {}, cwd: dir }
  const code = await main(['server', '--report-dir', out, '--timeout', '3000', '--', process.execPath, script, version], io)
  const report = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as { suites: { checks: CheckResult[] }[] }
  return { code, checks: report.suites.flatMap((suite) => suite.checks) }
}

const byId = (checks: CheckResult[], id: string) => checks.find((check) => check.id === id)

describe('a server that answers initialize with a revision that does not exist', () => {
  let ran: { code: number; checks: CheckResult[] }
  beforeAll(async () => {
    ran = await run('2099-01-01')
  }, 60_000)

  it('fails lifecycle/protocol-version under the version-negotiation MUST', () => {
    const check = byId(ran.checks, 'lifecycle/protocol-version')!
    expect(check.status).toBe('fail')
    expect(check.message).toContain('2099-01-01')
    expect(check.spec?.quote).toContain('the server MUST respond with another protocol version it supports')
  })

  it('gets the same verdict from lifecycle/unsupported-version, which sees the same answer', () => {
    expect(byId(ran.checks, 'lifecycle/unsupported-version')?.status).toBe('fail')
  })

  it('is no harness error: no check errs, and the run exits 1', () => {
    expect(ran.checks.filter((check) => check.status === 'error').map((check) => `${check.id}: ${check.message}`)).toEqual([])
    expect(ran.code).toBe(1)
  })
})

describe('a server that answers a legacy initialize with the modern revision 2026-07-28', () => {
  // Modern revisions carry no initialize at all: answering one with 2026-07-28 offers a revision
  // the legacy handshake cannot run, which is the server's fault, judged like any other.
  let ran: { code: number; checks: CheckResult[] }
  beforeAll(async () => {
    ran = await run('2026-07-28')
  }, 60_000)

  it('fails lifecycle/protocol-version under the version-negotiation MUST', () => {
    const check = byId(ran.checks, 'lifecycle/protocol-version')!
    expect(check.status, check.message).toBe('fail')
    expect(check.spec?.quote).toContain('the server MUST respond with another protocol version it supports')
  })

  it('is no harness error: no check errs, and the run exits 1', () => {
    expect(ran.checks.filter((check) => check.status === 'error').map((check) => `${check.id}: ${check.message}`)).toEqual([])
    expect(ran.code).toBe(1)
  })
})

describe('a server that counter-offers a published revision', () => {
  it('passes both version checks, and the run follows that revision', async () => {
    const { checks } = await run('2025-06-18')
    expect(byId(checks, 'lifecycle/protocol-version')?.status).toBe('pass')
    expect(byId(checks, 'lifecycle/unsupported-version')?.status).toBe('pass')
  }, 60_000)
})
