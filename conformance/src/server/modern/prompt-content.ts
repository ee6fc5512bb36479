/**
 * Pure: the verdict on the content of prompts/get results (./prompt-rules.ts). The schema types a
 * block's data and MIME type as plain strings; the prompts page's sentences ask more of them
 * (base64, a valid MIME type, a valid URI), and that is what is judged here.
 */
import type { CheckResult } from '../../model.ts'
import { isObject, list, show } from '../check.ts'
import { describeOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { PROMPT_CONTENT } from './prompt-rules.ts'
import { BASE64, uriIssue } from './probes.ts'
import type { Labelled } from './verdicts.ts'

/**
 * type "/" subtype, each a restricted-name of RFC 6838 section 4.2, then parameters (RFC 2045
 * section 5.1: attribute "=" token or quoted string). Case is free; nothing else is a MIME type.
 */
const NAME = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
const PARAMETER = `\\s*;\\s*[A-Za-z0-9!#$%&'*+.^_\`|~-]+=(?:[A-Za-z0-9!#$%&'*+.^_\`|~-]+|"(?:[^"\\\\]|\\\\.)*")`
const MIME_TYPE = new RegExp(`^${NAME}/${NAME}(?:${PARAMETER})*\\s*$`)

export function mimeIssue(mimeType: unknown): string | undefined {
  if (mimeType === undefined) return 'no mimeType'
  return typeof mimeType === 'string' && MIME_TYPE.test(mimeType) ? undefined : `mimeType ${show(mimeType, 60)}, which is no MIME type`
}

const base64Issue = (data: unknown, field: string) => (typeof data === 'string' && BASE64.test(data) ? undefined : `${field} ${show(data, 40)}, which is not base64`)

export interface ContentIssue {
  ruleCase: 'image' | 'audio' | 'resource-uri' | 'resource-mime' | 'resource-data'
  problem: string
}

/** What breaks a sentence in one content block; text and resource links have no sentence here. */
export function blockIssue(block: unknown): ContentIssue | undefined {
  if (!isObject(block)) return undefined
  if (block.type === 'image' || block.type === 'audio') {
    const problem = base64Issue(block.data, 'data') ?? mimeIssue(block.mimeType)
    return problem ? { ruleCase: block.type, problem: `${block.type} content with ${problem}` } : undefined
  }
  if (block.type !== 'resource') return undefined
  const resource = isObject(block.resource) ? block.resource : {}
  const uri = uriIssue(resource.uri)
  if (uri) return { ruleCase: 'resource-uri', problem: `an embedded resource whose uri ${uri}` }
  const mime = mimeIssue(resource.mimeType)
  if (mime) return { ruleCase: 'resource-mime', problem: `the embedded resource ${show(resource.uri, 60)} with ${mime}` }
  const text = typeof resource.text === 'string'
  const blob = 'blob' in resource ? base64Issue(resource.blob, 'blob') : 'neither text nor blob'
  if (!text && blob) return { ruleCase: 'resource-data', problem: `the embedded resource ${show(resource.uri, 60)} with ${blob}` }
  return undefined
}

/** The blocks of a GetPromptResult's messages (a message holds one ContentBlock; an array is read too). */
function blocksOf(result: unknown): unknown[] {
  const messages = isObject(result) && Array.isArray(result.messages) ? result.messages : []
  return messages.flatMap((message) => (isObject(message) ? [message.content].flat() : []))
}

/** `gets`: prompts/get of listed prompts; `listed`: whether a prompts/list result was there to pick from. */
export function judgePromptContent(gets: Labelled[], declared: boolean): CheckResult {
  const j = modernJudge(PROMPT_CONTENT)
  if (!declared) return j.skip('Not testable: the DiscoverResult declares no prompts')
  if (gets.length === 0) return j.skip('Not testable: no listed prompt can be got without arguments (or prompts/list gave no list; modern/lists reports why)')
  const judged: string[] = []
  for (const { label, outcome } of gets) {
    if (outcome.kind === 'timeout' || outcome.kind === 'closed') return j.breach(`${label} got ${describeOutcome(outcome)}`, { wire: outcome.wire }, 'reply')
    if (outcome.kind !== 'result' || (isObject(outcome.result) && outcome.result.resultType === 'input_required')) continue
    const blocks = blocksOf(outcome.result)
    const issue = blocks.map(blockIssue).find((i) => i !== undefined)
    if (issue) return j.breach(`${label} returned ${issue.problem}`, { wire: outcome.wire }, issue.ruleCase)
    judged.push(`${label}: ${blocks.length} content blocks`)
  }
  if (judged.length === 0) return j.skip(`Not testable: no prompts/get returned messages (${list(gets.map((g) => `${g.label}: ${describeOutcome(g.outcome)}`), 3)})`)
  return j.pass(list(judged, 3))
}
