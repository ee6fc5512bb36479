import { beyondAsk, type BeyondStep } from '../../beyond-ask.ts'
import { beyondMismatches, cursorProblems, promptArgumentProblems, readUriProblems, undeclaredUses, VERB_WIRE } from '../../beyond-checks.ts'
import { clientSpec, runRevision } from '../../rules.ts'
import type { RunState } from '../state.ts'

/** The schema sentence that binds prompt arguments (2025-11-25 schema.ts GetPromptRequestParams). */
const PROMPT_ARGUMENTS = { ref: 'MCP 2025-11-25 schema.ts GetPromptRequestParams: arguments?: { [key: string]: string }', url: 'https://modelcontextprotocol.io/specification/2025-11-25/schema#getpromptrequestparams', keyword: 'SCHEMA', quote: 'arguments?: { [key: string]: string } — Arguments to use for templating the prompt.' }

/** Resources are identified by URI; no sentence binds a client to send it unchanged, so a changed one is information. */
const READ_URI = { ref: 'MCP 2025-11-25 schema.ts ReadResourceRequestParams.uri: "The URI of the resource. The URI can use any protocol; it is up to the server how to interpret it." (no keyword)', url: 'https://modelcontextprotocol.io/specification/2025-11-25/schema#readresourcerequestparams' }

/**
 * A verb beyond tools, asked of the client: its answer judged against the step's `expect` (under
 * the scenario's own sentence), and the wire it caused against the sentences that bind every
 * client there: capabilities used only once negotiated, cursors sent back untouched, prompt
 * arguments as strings. A client that says it does not support the verb is not judged on it.
 */
export async function runBeyond(run: RunState, step: BeyondStep, stepNumber: number): Promise<void> {
  const { ask, expect } = beyondAsk(step)
  // `updates` and `instructions` ask the client what it holds: they send nothing to judge on the wire.
  const wireOf = ask.op === 'updates' || ask.op === 'instructions' || ask.op === 'setRoots' ? undefined : VERB_WIRE[ask.op]
  const title = `Step ${stepNumber}: ${ask.op}`
  const spec = run.scenario.spec[0]
  if (!run.session!.ask) {
    run.checks.push({ id: `expect/${ask.op}-${stepNumber}`, title, status: 'skip', message: `not applicable: the client offers no "${ask.op}"`, spec })
    return
  }
  const before = run.fixture.wire().length
  const outcome = await run.session!.ask(ask)
  run.events.push({ kind: 'note', text: `${ask.op}: ${outcome.ok ? JSON.stringify(outcome.value).slice(0, 300) : `error: ${outcome.error.slice(0, 300)}`}` })
  const wire = run.fixture.wire()
  const slice = wire.slice(before)
  const revision = runRevision(wire)
  if (!outcome.ok && outcome.unsupported) {
    run.checks.push({ id: `expect/${ask.op}-${stepNumber}`, title, status: 'skip', message: `not applicable: the client does not support "${ask.op}" (${outcome.error.slice(0, 200)})`, spec })
  } else if (!outcome.ok && outcome.unanswered) {
    const hung = clientSpec('timeouts/requests', revision)
    run.checks.push({ id: `expect/${ask.op}-${stepNumber}`, title, status: 'warn', message: `${outcome.unanswered} (a SHOULD for clients: ${hung.ref})`, spec: hung })
  } else if (expect) {
    const problems = beyondMismatches(ask.op, outcome, expect)
    run.checks.push({ id: `expect/${ask.op}-${stepNumber}`, title: `${title} answers as expected`, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : 'as expected', spec, details: { outcome } })
  }
  if (!wireOf) return
  const { method, capability } = wireOf
  const undeclared = undeclaredUses(wire, slice, method, capability)
  run.checks.push(wireCheck(`wire/capability-${stepNumber}`, `Step ${stepNumber}: ${method} only if the server declared "${capability}"`, undeclared, clientSpec('capabilities/negotiated', revision), `no ${method} sent`))
  if (ask.op === 'resources' || ask.op === 'templates' || ask.op === 'prompts') {
    run.checks.push(wireCheck(`wire/cursors-${stepNumber}`, `Step ${stepNumber}: every ${method} cursor is one the server gave, unmodified`, cursorProblems(wire, slice, method), clientSpec('pagination/opaque', revision), 'the client sent no cursor'))
  }
  if (ask.op === 'prompt') {
    const args = promptArgumentProblems(slice, ask.args)
    const check = wireCheck(`wire/prompt-arguments-${stepNumber}`, `Step ${stepNumber}: prompt arguments are strings, as the schema declares them`, args, PROMPT_ARGUMENTS, 'no prompts/get sent')
    run.checks.push(args.notes.length ? { ...check, message: `${check.message}; ${args.notes.join('; ')}` } : check)
  }
  if (ask.op === 'read') run.checks.push(wireCheck(`wire/read-uri-${stepNumber}`, `Step ${stepNumber}: the resource is read by the exact URI listed`, readUriProblems(slice, ask.uri), READ_URI, 'no resources/read sent'))
}

/** A check of the wire a step caused; nothing of the kind on the wire is a skip that says so, never a pass. */
function wireCheck(id: string, title: string, { sent, problems }: { sent: number; problems: string[] }, spec: { ref: string; url?: string; keyword?: string; quote?: string }, none: string) {
  if (problems.length) return { id, title, status: 'fail' as const, message: problems.slice(0, 5).join('; '), spec }
  if (!sent) return { id, title, status: 'skip' as const, message: `nothing to judge: ${none}`, spec }
  return { id, title, status: 'pass' as const, message: `${sent} checked`, spec }
}
