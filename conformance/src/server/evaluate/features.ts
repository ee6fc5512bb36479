/** Pure verdicts on resources/read, prompts/get and logging/setLevel. */
import type { CheckResult } from '../../model.ts'
import { count, isObject, notTestable, show, verdict } from '../check.ts'
import { promptResultProblems, readResultProblems } from '../content.ts'
import { spec } from '../spec.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

export function judgeRead(uri: string | undefined, outcome: RpcOutcome | undefined, listFailed: boolean, version: string): CheckResult {
  const id = 'resources/read'
  const title = 'resources/read of a listed resource returns its contents'
  const ref = spec(version, 'resources#reading-resources')
  if (listFailed) return notTestable(id, title, 'resources/list failed', { spec: ref })
  if (uri === undefined || !outcome) return verdict(id, title, 'skip', 'resources/list returned no resources to read', { spec: ref })
  const wire = outcome.wire
  if (outcome.kind !== 'result') return verdict(id, title, 'fail', `reading ${show(uri)} got ${describeOutcome(outcome)}`, { spec: ref, wire })
  const problems = readResultProblems(outcome.result)
  if (problems.length) return verdict(id, title, 'fail', `reading ${show(uri)}: ${problems.slice(0, 3).join('; ')}`, { spec: ref, wire, details: { problems } })
  const items = isObject(outcome.result) && Array.isArray(outcome.result.contents) ? outcome.result.contents.length : 0
  return verdict(id, title, 'pass', `${show(uri)} returned ${count(items, 'content item')}`, { spec: ref, wire })
}

/** Placeholder values for a prompt's required arguments, so prompts/get can be asked at all. */
export function promptArguments(prompt: Record<string, unknown>): Record<string, string> {
  const args: Record<string, string> = {}
  if (!Array.isArray(prompt.arguments)) return args
  for (const arg of prompt.arguments) {
    if (isObject(arg) && typeof arg.name === 'string' && arg.required === true) args[arg.name] = 'mcp-conformance'
  }
  return args
}

export function judgeGetPrompt(name: string | undefined, outcome: RpcOutcome | undefined, listFailed: boolean, version: string): CheckResult {
  const id = 'prompts/get'
  const title = 'prompts/get of a listed prompt returns messages'
  const ref = spec(version, 'prompts#getting-a-prompt')
  if (listFailed) return notTestable(id, title, 'prompts/list failed', { spec: ref })
  if (name === undefined || !outcome) return verdict(id, title, 'skip', 'prompts/list returned no prompts to get', { spec: ref })
  const wire = outcome.wire
  if (outcome.kind !== 'result') return verdict(id, title, 'fail', `getting ${show(name)} got ${describeOutcome(outcome)}`, { spec: ref, wire })
  const problems = promptResultProblems(outcome.result)
  if (problems.length) return verdict(id, title, 'fail', `getting ${show(name)}: ${problems.slice(0, 3).join('; ')}`, { spec: ref, wire, details: { problems } })
  const messages = isObject(outcome.result) && Array.isArray(outcome.result.messages) ? outcome.result.messages.length : 0
  return verdict(id, title, 'pass', `${show(name)} returned ${count(messages, 'message')}`, { spec: ref, wire })
}

export function judgeSetLevel(outcome: RpcOutcome, version: string): CheckResult {
  const id = 'logging/set-level'
  const title = 'logging/setLevel is accepted'
  const evidence = { spec: spec(version, 'logging#setting-log-level'), wire: outcome.wire }
  if (outcome.kind !== 'result') return verdict(id, title, 'fail', `logging/setLevel got ${describeOutcome(outcome)}`, evidence)
  if (!isObject(outcome.result)) return verdict(id, title, 'fail', 'the result is not an object', evidence)
  return verdict(id, title, 'pass', 'accepted level "info"', evidence)
}

/** The area was not declared: one skip per check that would have run, so reports stay comparable. */
export function notDeclared(capability: string, ids: Array<[string, string]>): CheckResult[] {
  return ids.map(([id, title]) => verdict(id, title, 'skip', `the server does not declare the ${capability} capability`))
}
