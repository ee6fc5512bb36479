/** Pure verdicts on resources/read, prompts/get and logging/setLevel. */
import type { CheckResult } from '../../model.ts'
import { count, isObject, notTestable, show, verdict } from '../check.ts'
import { promptResultProblems, readResultProblems } from '../content.ts'
import { spec } from '../spec.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

/** What a fetch of one listed item (a resource read, a prompt get) is judged by. */
interface ListedFetch {
  id: string
  title: string
  topic: Parameters<typeof spec>[1]
  /** The list whose first item was fetched, what it lists, and what fetching one is called. */
  list: string
  listed: string
  verb: string
  doing: string
  problems: (result: unknown) => string[]
  /** The result array that is counted, and what one element is called. */
  items: string
  noun: string
}

function judgeListedFetch(kind: ListedFetch, subject: string | undefined, outcome: RpcOutcome | undefined, listFailed: boolean, version: string): CheckResult {
  const { id, title } = kind
  const ref = spec(version, kind.topic)
  if (listFailed) return notTestable(id, title, `${kind.list} failed`, { spec: ref })
  if (subject === undefined || !outcome) return verdict(id, title, 'skip', `${kind.list} returned no ${kind.listed} to ${kind.verb}`, { spec: ref })
  const wire = outcome.wire
  if (outcome.kind !== 'result') return verdict(id, title, 'fail', `${kind.doing} ${show(subject)} got ${describeOutcome(outcome)}`, { spec: ref, wire })
  const problems = kind.problems(outcome.result)
  if (problems.length) return verdict(id, title, 'fail', `${kind.doing} ${show(subject)}: ${problems.slice(0, 3).join('; ')}`, { spec: ref, wire, details: { problems } })
  const found = isObject(outcome.result) ? outcome.result[kind.items] : undefined
  return verdict(id, title, 'pass', `${show(subject)} returned ${count(Array.isArray(found) ? found.length : 0, kind.noun)}`, { spec: ref, wire })
}

const READ: ListedFetch = {
  id: 'resources/read',
  title: 'resources/read of a listed resource returns its contents',
  topic: 'resources#reading-resources',
  list: 'resources/list',
  listed: 'resources',
  verb: 'read',
  doing: 'reading',
  problems: readResultProblems,
  items: 'contents',
  noun: 'content item',
}

const GET_PROMPT: ListedFetch = {
  id: 'prompts/get',
  title: 'prompts/get of a listed prompt returns messages',
  topic: 'prompts#getting-a-prompt',
  list: 'prompts/list',
  listed: 'prompts',
  verb: 'get',
  doing: 'getting',
  problems: promptResultProblems,
  items: 'messages',
  noun: 'message',
}

export function judgeRead(uri: string | undefined, outcome: RpcOutcome | undefined, listFailed: boolean, version: string): CheckResult {
  return judgeListedFetch(READ, uri, outcome, listFailed, version)
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
  return judgeListedFetch(GET_PROMPT, name, outcome, listFailed, version)
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
