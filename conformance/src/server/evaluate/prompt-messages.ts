/** Pure: what the prompts page asks of a prompt beyond its schema (embedded MIME types, argument validation). */
import type { CheckResult } from '../../model.ts'
import { isObject, judge, list, show, unreadable } from '../check.ts'
import { PROMPTS_MISSING_ARGUMENT } from '../registry/features.ts'
import { ERROR_RESPONSES } from '../registry/messages.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

const INVALID_PARAMS = -32602

/**
 * The URIs of embedded resources in a GetPromptResult without a MIME type. The schema leaves
 * `mimeType` optional, so only the prompts page's prose (a MUST) rules it out; an empty string
 * names no type either.
 */
export function resourcesWithoutMime(result: unknown): string[] {
  const messages = isObject(result) && Array.isArray(result.messages) ? result.messages : []
  const blocks = messages.flatMap((message) => (isObject(message) ? [message.content].flat() : []))
  return blocks
    .filter((block): block is Record<string, unknown> => isObject(block) && block.type === 'resource' && isObject(block.resource))
    .map((block) => block.resource as Record<string, unknown>)
    .filter((resource) => typeof resource.mimeType !== 'string' || resource.mimeType.trim() === '')
    .map((resource) => (typeof resource.uri === 'string' ? show(resource.uri) : 'a resource without a uri'))
}

/** The message a prompt result with MIME-less embedded resources gets, or undefined. */
export function missingMimeMessage(what: string, result: unknown): string | undefined {
  const uris = resourcesWithoutMime(result)
  return uris.length ? `${what}: ${uris.length === 1 ? 'an embedded resource has' : `${uris.length} embedded resources have`} no MIME type (${list(uris, 3)})` : undefined
}

/**
 * prompts/get of `name`, whose listing marks `argument` required, sent without arguments. A result
 * means the arguments were not validated; -32602 is the code the error-handling SHOULD names.
 */
export function judgeMissingArgument(target: { name: string; argument: string } | undefined, outcome: RpcOutcome | undefined, listFailedAt: string | undefined, version: string): CheckResult {
  const j = judge(PROMPTS_MISSING_ARGUMENT, version)
  if (listFailedAt !== undefined) return j.notTestable(listFailedAt, 'there is no prompt list to get a prompt from')
  if (!target || !outcome) return j.skip('no listed prompt has a required argument')
  const what = `getting ${show(target.name)} without its required argument ${show(target.argument, 40)}`
  const wire = outcome.wire
  const blocked = unreadable(j, what, outcome)
  if (blocked) return blocked
  if (outcome.kind === 'timeout' || outcome.kind === 'closed') return j.breach(`${what} got ${describeOutcome(outcome)}`, { wire }, 'reply')
  // A code that is no integer is the envelope's breach; which code it meant is not for this check to guess.
  if (outcome.kind === 'error' && !Number.isInteger(outcome.error.code)) return j.notTestable(ERROR_RESPONSES.id, `the error answering ${what} has a code that is not an integer`, { wire })
  if (outcome.kind === 'result') return j.breach(`${what} was served: the server processed the prompt without validating its arguments`, { wire })
  if (outcome.kind === 'error' && outcome.error.code !== INVALID_PARAMS) return j.breach(`${what} was refused with ${describeOutcome(outcome)}, not -32602 (Invalid params)`, { wire }, 'code')
  if (outcome.kind !== 'error') return j.skip(`${what} got ${describeOutcome(outcome)}`, { wire })
  return j.pass(`${what} was refused with ${describeOutcome(outcome)}`, { wire })
}
