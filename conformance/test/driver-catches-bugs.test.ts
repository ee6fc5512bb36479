import { describe, expect, it } from 'vitest'
import { driverAdapter } from '../src/client/driver/adapter.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import type { CheckStatus } from '../src/model.ts'

const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))
const BROKEN = new URL('./support/broken-sdk-driver.mjs', import.meta.url).pathname
const SDK = new URL('../drivers/sdk-client.mjs', import.meta.url).pathname

async function statusOf(command: string, scenarioId: string, transport: 'stdio' | 'http', checkId: string): Promise<{ status: CheckStatus | 'absent'; message: string }> {
  const result = await runScenario(scenarios.get(scenarioId)!, transport, driverAdapter(command), { updateSnapshots: false })
  const check = result.checks.find((c) => c.id === checkId)
  return { status: check?.status ?? 'absent', message: check?.message ?? '' }
}

// Every universal expectation, failing on a client with the matching bug and passing without it.
// A SHOULD breached is a warning for a client (the scenario quotes the sentence), never a pass.
const bugs: Array<{ bug: string; scenario: string; transport: 'stdio' | 'http'; check: string; status?: CheckStatus }> = [
  // No spec sentence asks a client to call only listed names: the bridge's own rule, information for a client.
  { bug: 'public-name-on-wire', scenario: 'clean-discovery', transport: 'stdio', check: 'invariant/raw-names-on-wire', status: 'skip' },
  { bug: 'no-initialized', scenario: 'clean-discovery', transport: 'http', check: 'invariant/handshake' },
  { bug: 'no-session-header', scenario: 'clean-discovery', transport: 'http', check: 'invariant/http-session-header' },
  { bug: 'first-page-only', scenario: 'pagination', transport: 'stdio', check: 'expect/received/tools/list', status: 'warn' },
  { bug: 'unbounded-pagination', scenario: 'pagination-repeating-cursor', transport: 'http', check: 'expect/received/tools/list', status: 'skip' },
  { bug: 'previous-cursor-only', scenario: 'pagination-cyclic-cursor', transport: 'stdio', check: 'expect/received/tools/list', status: 'skip' },
  { bug: 'late-timeout', scenario: 'call-timeout-sends-cancelled', transport: 'stdio', check: 'timing/step-1', status: 'warn' },
  { bug: 'sigkill-at-close', scenario: 'shutdown-ends-with-eof', transport: 'stdio', check: 'expect/shutdown', status: 'warn' },
  { bug: 'relist-per-notification', scenario: 'list-changed-storm', transport: 'stdio', check: 'expect/received/tools/list', status: 'skip' },
  // "When a party wants to cancel an in-progress request, it sends a notifications/cancelled notification": no keyword, information.
  { bug: 'no-cancel-on-abort', scenario: 'caller-abort', transport: 'stdio', check: 'expect/received/notifications/cancelled', status: 'skip' },
  { bug: 'timeout-without-cancel', scenario: 'call-timeout-sends-cancelled', transport: 'http', check: 'expect/received/notifications/cancelled', status: 'warn' },
  { bug: 'no-close', scenario: 'clean-discovery', transport: 'stdio', check: 'invariant/no-orphans', status: 'warn' },
  { bug: 'no-ping-answer', scenario: 'ping-answered', transport: 'stdio', check: 'invariant/ping-answered' },
  { bug: 'no-protocol-header', scenario: 'version-counter-offer-accepted', transport: 'http', check: 'invariant/http-protocol-version' },
  { bug: 'accept-any-version', scenario: 'version-unknown-client-disconnects', transport: 'stdio', check: 'expect/received/tools/list', status: 'warn' },
  // The client's own close is timed, not the kit's waits for its servers and its process after it.
  { bug: 'slow-close', scenario: 'hang-on-initialize', transport: 'stdio', check: 'timing/dispose', status: 'skip' },
  // The child's environment is the bridge's own rule, not the spec's: information for a client.
  { bug: 'pass-host-env', scenario: 'secret-canary', transport: 'stdio', check: 'expect/call-1', status: 'skip' },
  // The SDK negotiates 2025-11-25: "Clients SHOULD provide tool execution errors to language models" (a warning; information before 2025-11-25).
  // Answering an ask of a capability never declared: "Clients that support elicitation MUST declare the elicitation capability".
  { bug: 'answer-undeclared', scenario: 'elicitation-without-capability', transport: 'stdio', check: 'asks/elicitation-undeclared' },
  { bug: 'non-file-root', scenario: 'roots-listed-when-configured', transport: 'http', check: 'asks/roots-file-uri' },
  // "When roots change, clients that support listChanged MUST send a notification" (2025-11-25 client/roots).
  { bug: 'unannounced-roots-change', scenario: 'roots-change-announced', transport: 'stdio', check: 'expect/setRoots-2' },
  // Without listChanged declared the client promised no notification: information, never a failure.
  { bug: 'roots-without-list-changed', scenario: 'roots-change-announced', transport: 'http', check: 'expect/setRoots-2', status: 'skip' },
  // "Clients SHOULD validate all responses against the provided schema": a warning.
  { bug: 'invalid-form-content', scenario: 'elicitation-form-accepted', transport: 'stdio', check: 'asks/elicitation-content-valid', status: 'warn' },
  // "Clients: MUST ignore notifications referencing unknown or already-completed IDs." (2025-11-25 client/elicitation)
  { bug: 'answer-completion', scenario: 'elicitation-complete-unknown-ignored', transport: 'stdio', check: 'asks/elicitation-complete-ignored' },
  { bug: 'close-on-unknown-completion', scenario: 'elicitation-complete-unknown-ignored', transport: 'http', check: 'expect/call-2' },
  { bug: 'is-error-as-success', scenario: 'is-error-result', transport: 'http', check: 'expect/call-1', status: 'warn' },
]

describe('the kit catches bugs in any client, through the driver protocol', () => {
  it.each(bugs)('$bug is caught by $scenario [$transport] / $check', async ({ bug, scenario, transport, check, status = 'fail' }) => {
    expect(await statusOf(`node ${BROKEN}`, scenario, transport, check)).toMatchObject({ status: 'pass' })
    expect(await statusOf(`node ${BROKEN} ${bug}`, scenario, transport, check)).toMatchObject({ status })
  })

  // An error from a client that never offered the tool says nothing of a timeout: not a pass, and
  // not that behaviour's failure either (listing is other scenarios' check), nor a step to time.
  it('does not judge a call the client could not send', async () => {
    const result = await runScenario(scenarios.get('call-timeout-sends-cancelled')!, 'stdio', driverAdapter(`node ${BROKEN} list-nothing`), { updateSnapshots: false })
    const check = (id: string) => result.checks.find((c) => c.id === id)
    expect(check('expect/call-1')).toMatchObject({ status: 'skip', message: 'nothing to judge: the client does not offer stuck (it offers no tools), so the kit did not call it' })
    expect(check('timing/step-1')).toMatchObject({ status: 'skip' })
  })

  // "Clients MAY provide protocol errors to language models": a client that reports the JSON-RPC
  // error as an error, in words of its own, is judged on the error only; the text is information.
  it("a client that reports a JSON-RPC error without the server's words passes, the text noted as information", async () => {
    const generic = `node -e 'require("readline").createInterface({input:process.stdin}).on("line",(l)=>{const m=JSON.parse(l);if(m.result&&m.result.isError)m.result.content=[{type:"text",text:"the tool failed"}];else if(m.ok===false)m.error="the tool failed";console.log(JSON.stringify(m))})'`
    const result = await runScenario(scenarios.get('json-rpc-error-is-a-tool-error')!, 'stdio', driverAdapter(`node ${BROKEN} | ${generic}`), { updateSnapshots: false })
    expect(result.checks.find((c) => c.id === 'expect/call-1')).toMatchObject({ status: 'pass', message: expect.stringMatching(/Information \(no requirement for clients\): text does not match .*Clients MAY provide protocol errors to language models/) })
  })

  // Not a planted bug: the SDK's Client does not start a new session on HTTP 404, which the spec
  // requires ("it MUST start a new session by sending a new InitializeRequest").
  it('the raw SDK client fails the 404 re-initialization rule', async () => {
    expect(await statusOf(`node ${SDK}`, 'http-404-session-expiry', 'http', 'expect/received/initialize')).toEqual({ status: 'fail', message: 'received 1, expected at least 2' })
  })
})
