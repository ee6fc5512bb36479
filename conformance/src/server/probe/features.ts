/** Resources, prompts and logging: each probed only when the server declares it. */
import type { CheckResult } from '../../model.ts'
import { isObject } from '../check.ts'
import { judgeGetPrompt, judgeRead, judgeSetLevel, notDeclared, promptArguments } from '../evaluate/features.ts'
import type { Session } from '../evaluate/lifecycle.ts'
import { judgeList, listChecks, namedItems } from '../evaluate/lists.ts'
import type { Wire } from '../wire/types.ts'
import { drainList } from './lists.ts'

const READ = { id: 'resources/read', title: 'resources/read of a listed resource returns its contents' }
const GET = { id: 'prompts/get', title: 'prompts/get of a listed prompt returns messages' }
const SET_LEVEL = { id: 'logging/set-level', title: 'logging/setLevel is accepted' }

const pairs = (checks: Array<{ id: string; title: string }>): Array<[string, string]> => checks.map((c) => [c.id, c.title])

export async function probeResources(wire: Wire, session: Session, timeoutMs: number): Promise<CheckResult[]> {
  if (!isObject(session.capabilities.resources)) return notDeclared('resources', pairs([...listChecks('resources'), READ]))
  const obs = await drainList(wire, 'resources', timeoutMs)
  const checks = judgeList(obs, session.version)
  const failed = obs.stop === 'failed' || obs.stop === 'bad-page'
  const first = obs.items.find((item): item is Record<string, unknown> => isObject(item) && typeof item.uri === 'string')
  const uri = failed ? undefined : (first?.uri as string | undefined)
  const outcome = uri === undefined ? undefined : await wire.request('resources/read', { uri }, timeoutMs)
  checks.push(judgeRead(uri, outcome, failed, session.version))
  return checks
}

export async function probePrompts(wire: Wire, session: Session, timeoutMs: number): Promise<CheckResult[]> {
  if (!isObject(session.capabilities.prompts)) return notDeclared('prompts', pairs([...listChecks('prompts'), GET]))
  const obs = await drainList(wire, 'prompts', timeoutMs)
  const checks = judgeList(obs, session.version)
  const failed = obs.stop === 'failed' || obs.stop === 'bad-page'
  const first = failed ? undefined : namedItems(obs)[0]
  const name = first?.name as string | undefined
  const outcome = first && name !== undefined ? await wire.request('prompts/get', { name, arguments: promptArguments(first) }, timeoutMs) : undefined
  checks.push(judgeGetPrompt(name, outcome, failed, session.version))
  return checks
}

export async function probeLogging(wire: Wire, session: Session, timeoutMs: number): Promise<CheckResult[]> {
  if (!isObject(session.capabilities.logging)) return notDeclared('logging', pairs([SET_LEVEL]))
  const outcome = await wire.request('logging/setLevel', { level: 'info' }, timeoutMs)
  return [judgeSetLevel(outcome, session.version)]
}
