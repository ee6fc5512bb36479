import { describe, expect, it } from 'vitest'
import { driverAdapter } from '../src/client/driver/adapter.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import type { CheckStatus } from '../src/model.ts'

const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))
const BROKEN = new URL('./support/broken-beyond-driver.mjs', import.meta.url).pathname

async function run(bug: string, scenarioId: string, transport: 'stdio' | 'http' = 'stdio') {
  return runScenario(scenarios.get(scenarioId)!, transport, driverAdapter(`node ${BROKEN} ${bug}`), { updateSnapshots: false })
}

// Each beyond-tools scenario's check, passing for a correct client and caught for one with the
// bug, at the force of the sentence it quotes: MUST (or the schema) fails, SHOULD warns, a
// scenario about behaviour no keyword binds reports information (a skip that says so).
const bugs: Array<{ bug: string; scenario: string; transport?: 'stdio' | 'http'; check: string; status: CheckStatus; message?: RegExp }> = [
  { bug: 'cursor-edited', scenario: 'resources-paginated-list', check: 'wire/cursors-1', status: 'fail', message: /never gave as a nextCursor/ },
  { bug: 'first-page-only', scenario: 'resources-paginated-list', transport: 'http', check: 'expect/resources-1', status: 'warn', message: /listed 2 of 5/ },
  { bug: 'cursor-edited', scenario: 'prompts-paginated-list', transport: 'http', check: 'wire/cursors-1', status: 'fail' },
  { bug: 'first-page-only', scenario: 'prompts-paginated-list', check: 'expect/prompts-1', status: 'warn', message: /Clients SHOULD handle pagination for large prompt lists/ },
  { bug: 'first-page-only', scenario: 'resource-templates-list', check: 'expect/templates-1', status: 'warn' },
  { bug: 'numeric-arguments', scenario: 'prompt-get-arguments', check: 'wire/prompt-arguments-2', status: 'fail', message: /argument "days" is 7, not a string/ },
  { bug: 'null-arguments', scenario: 'prompt-without-arguments', transport: 'http', check: 'wire/prompt-arguments-2', status: 'fail', message: /arguments null is not an object of strings/ },
  { bug: 'uri-decoded', scenario: 'resource-read-exact-uri', check: 'wire/read-uri-2', status: 'skip', message: /^Information .*Read Me/ },
  { bug: 'blob-as-text', scenario: 'resource-read-blob', transport: 'http', check: 'expect/read-1', status: 'skip', message: /^Information .*other bytes/ },
  { bug: 'ignore-capability', scenario: 'completion-without-capability', check: 'wire/capability-1', status: 'fail', message: /declared no "completions"/ },
  { bug: 'ignore-capability', scenario: 'completion-without-capability', check: 'expect/received/completion/complete', status: 'fail' },
  { bug: 'swallow-errors', scenario: 'resource-read-unknown-uri', check: 'expect/read-1', status: 'skip', message: /^Information .*a result where a refusal was expected/ },
  { bug: 'swallow-errors', scenario: 'prompt-missing-argument', transport: 'http', check: 'expect/prompt-1', status: 'skip', message: /^Information .*a result where a refusal was expected/ },
  { bug: 'ignore-capability', scenario: 'resources-without-capability', transport: 'http', check: 'wire/capability-1', status: 'fail', message: /resources\/list request/ },
  { bug: 'ignore-capability', scenario: 'prompts-without-capability', check: 'expect/received/prompts/list', status: 'fail' },
]

describe('the kit judges any client on resources, prompts and completions', () => {
  it.each(bugs)('$bug is caught by $scenario / $check', async ({ bug, scenario, transport = 'stdio', check, status, message }) => {
    const clean = (await run('none', scenario, transport)).checks.find((c) => c.id === check)
    // The negative scenario's wire check has nothing to judge when the client rightly sends nothing.
    expect(clean?.status).toBe(bug === 'ignore-capability' && check.startsWith('wire/') ? 'skip' : 'pass')
    const broken = (await run(bug, scenario, transport)).checks.find((c) => c.id === check)
    expect(broken).toMatchObject({ status, ...(message && { message: expect.stringMatching(message) }) })
  })

  it('a client that declares no resources is not applicable, never failed', async () => {
    const result = await run('no-features', 'resources-paginated-list')
    expect(result.checks).toEqual([expect.objectContaining({ status: 'skip', message: expect.stringMatching(/only for clients that declare "resources"/) })])
  })

  it('a verb the client answers as unsupported is not judged', async () => {
    const check = (await run('unsupported', 'resource-read-blob')).checks.find((c) => c.id === 'expect/read-1')
    expect(check).toMatchObject({ status: 'skip', message: expect.stringMatching(/^not applicable: the client does not support "read"/) })
  })
})
