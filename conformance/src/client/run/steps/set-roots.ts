import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../../../model.ts'
import { ROOTS_LIST_CHANGED } from '../../asks-rules.ts'
import { citeRule, clientSpec, runRevision } from '../../rules.ts'
import type { Scenario } from '../../scenario.ts'
import { INFORMATION } from '../../verdicts.ts'
import type { RunState } from '../state.ts'
import { pollUntil } from './wait.ts'

type SetRoots = Extract<Scenario['steps'][number], { setRoots: unknown }>['setRoots']

const METHOD = 'notifications/roots/list_changed'

/**
 * The `setRoots` step: the client is asked to change its configured roots while it runs, and a
 * client that declared `roots.listChanged` must then tell the server (MCP 2024-11-05 to 2025-11-25
 * §client/roots Root List Changes, a MUST). The notification is waited for as an event, up to the
 * step's `timeoutMs`, never after a fixed sleep. A client that declared roots without
 * `listChanged` promised nothing: information. 2026-07-28 has no such notification: not judged.
 */
export async function runSetRoots(run: RunState, step: SetRoots, stepNumber: number): Promise<void> {
  const id = `expect/setRoots-${stepNumber}`
  const title = `Step ${stepNumber}: the roots change is announced with ${METHOD}`
  const skip = (message: string, spec = citeRule(ROOTS_LIST_CHANGED, '2025-11-25')): void => void run.checks.push({ id, title, status: 'skip', message, spec })
  if (!run.session!.ask) return skip('not applicable: the client offers no "setRoots" (no way to change its roots while it runs)')
  const before = run.fixture.wire().length
  const outcome = await run.session!.ask({ op: 'setRoots', roots: step.roots })
  run.events.push({ kind: 'note', text: `setRoots: ${outcome.ok ? JSON.stringify(step.roots).slice(0, 300) : `error: ${outcome.error.slice(0, 300)}`}` })
  const revision = runRevision(run.fixture.wire())
  const spec = citeRule(ROOTS_LIST_CHANGED, revision)
  if (!outcome.ok && outcome.unsupported) return skip(`not applicable: the client does not support "setRoots" (${outcome.error.slice(0, 200)})`, spec)
  if (!outcome.ok && outcome.unanswered) {
    const hung = clientSpec('timeouts/requests', revision)
    run.checks.push({ id, title, status: 'warn', message: `${outcome.unanswered} (a SHOULD for clients: ${hung.ref})`, spec: hung })
    return
  }
  // A client that could not change its roots changed nothing to announce; for our bridge that is its own bug.
  if (!outcome.ok) return void run.checks.push({ id, title, status: run.kind === 'bridge' ? 'fail' : 'skip', message: `${run.kind === 'bridge' ? '' : 'nothing to judge: '}the client did not change its roots: ${outcome.error.slice(0, 200)}`, spec })
  const declared = declaredListChanged(run.fixture.wire())
  if (declared === undefined) return skip('not judged: the client spoke 2026-07-28 only, which has no notifications/roots/list_changed (removed by SEP-2575) and no roots.listChanged', spec)
  if (!declared) return skip(`${INFORMATION}the client declared no roots.listChanged, so it promised no notification when its roots change (${spec.ref})`, spec)
  const heard = await waitForNotification(run, before, step.timeoutMs)
  run.checks.push(verdict(id, title, heard, step.timeoutMs, spec))
}

/** Pure: whether the client's last `initialize` declared `roots.listChanged`; undefined when it never initialized (a modern client). */
export function declaredListChanged(wire: readonly WireEntry[]): boolean | undefined {
  let declared: boolean | undefined
  for (const { dir, msg } of wire) {
    const m = msg as { method?: string; params?: { capabilities?: { roots?: { listChanged?: unknown } } } }
    if (dir === 'recv' && m.method === 'initialize') declared = m.params?.capabilities?.roots?.listChanged === true
  }
  return declared
}

/** Until the fixture has received the notification since `from` (a wire index), or the timeout passed. */
async function waitForNotification(run: RunState, from: number, timeoutMs: number): Promise<boolean> {
  return pollUntil(() => run.fixture.wire().slice(from).some(({ dir, msg }) => dir === 'recv' && (msg as { method?: string }).method === METHOD), timeoutMs)
}

function verdict(id: string, title: string, heard: boolean, timeoutMs: number, spec: CheckResult['spec']): CheckResult {
  if (heard) return { id, title, status: 'pass', message: `${METHOD} received after the roots changed`, spec }
  return { id, title, status: 'fail', message: `the client declared roots.listChanged, changed its roots, and sent no ${METHOD} within ${timeoutMs} ms`, spec }
}
