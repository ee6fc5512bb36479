/**
 * The modern run's own probes past the lists (./probe-rules.ts), each one request bounded by the
 * run's request timeout, judged in ./probes.ts (and ./name-header.ts). Only reads and bad input:
 * no tool is called.
 */
import type { CheckResult } from '../../model.ts'
import { INVALID_URI } from '../invalid-uri.ts'
import { isObject } from '../check.ts'
import type { ModernRevision } from '../spec.ts'
import type { ServerWire } from '../wire/server-wire.ts'
import type { RpcOutcome, Wire } from '../wire/types.ts'
import { judgeCapabilityDeclared, judgeResourceRead, judgeStandardErrors, judgeToolList, type BadInput } from './probes.ts'
import { judgeNameHeader } from './name-header.ts'
import { probeNameHeader } from './name-header-run.ts'
import { judgePromptContent } from './prompt-content.ts'
import { judgePages } from './pages.ts'
import { followPages } from './pages-run.ts'
import { meta, variant } from './request-meta.ts'
import type { Feature, Labelled } from './verdicts.ts'

const NO_SUCH_PROMPT = 'mcp-conformance-no-such-prompt'
const INVALID_CURSOR = 'mcp-conformance-invalid-cursor'
const NO_SUCH_LEVEL = 'mcp-conformance-no-such-level'
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel'
const HEADER_SAFE = /^[\x21-\x7e]{1,2000}$/

export type Send = (label: string, method: string, params: Record<string, unknown>, via?: Wire) => Promise<RpcOutcome>

export interface ProbeContext {
  wire: ServerWire
  revision: ModernRevision
  timeoutMs: number
  capabilities: Record<string, unknown>
  /** The list results of the declared features. */
  lists: (Labelled & { feature: Feature })[]
  /** The list requests of the undeclared features (sent for modern/method-not-found). */
  undeclared: (Labelled & { feature: Feature })[]
  send: Send
}

/** Over HTTP, Mcp-Name mirrors the name or URI a request carries (2026-07-28 streamable-http, custom headers). */
function named(ctx: ProbeContext, name: string): Wire {
  return ctx.wire.http ? variant(ctx.wire.http, ctx.revision, { 'mcp-name': name }, ctx.timeoutMs) : ctx.wire
}

const entries = (outcome: RpcOutcome | undefined, member: string): Record<string, unknown>[] => {
  const found = outcome?.kind === 'result' && isObject(outcome.result) ? outcome.result[member] : undefined
  return Array.isArray(found) ? found.filter(isObject) : []
}

/** How many listed prompts prompts/get is sent for: enough to meet more than one kind of content, few enough to stay quick. */
const PROMPTS_GOT = 3

/** Listed prompts that list no required argument, so a get without "arguments" is one the listing offers to serve. */
function withoutRequiredArguments(prompts: Record<string, unknown>[], http: boolean): string[] {
  return prompts
    .filter((p) => !(Array.isArray(p.arguments) && p.arguments.some((a) => isObject(a) && a.required === true)))
    .map((p) => p.name)
    .filter((name): name is string => typeof name === 'string' && (!http || HEADER_SAFE.test(name)))
    .slice(0, PROMPTS_GOT)
}

async function getPrompts(ctx: ProbeContext, listed: RpcOutcome | undefined): Promise<Labelled[]> {
  const gets: Labelled[] = []
  for (const name of withoutRequiredArguments(entries(listed, 'prompts'), ctx.wire.http !== undefined)) {
    const label = `prompts/get of ${name}`
    gets.push({ label, outcome: await ctx.send(label, 'prompts/get', { name, _meta: meta(ctx.revision) }, named(ctx, name)) })
  }
  return gets
}

function withRequiredArgument(prompts: Record<string, unknown>[]): string | undefined {
  const prompt = prompts.find((p) => typeof p.name === 'string' && Array.isArray(p.arguments) && p.arguments.some((a) => isObject(a) && a.required === true))
  return prompt?.name as string | undefined
}

async function badInput(ctx: ProbeContext, listOf: (f: Feature) => RpcOutcome | undefined): Promise<BadInput[]> {
  const { send, revision } = ctx
  const probes: BadInput[] = []
  const probe = async (ruleCase: BadInput['ruleCase'], label: string, method: string, params: Record<string, unknown>, via?: Wire) => {
    probes.push({ label, ruleCase, outcome: await send(label, method, { ...params, _meta: { ...meta(revision), ...(params._meta as object | undefined) } }, via) })
  }
  const prompts = entries(listOf('prompts'), 'prompts')
  const withArgs = withRequiredArgument(prompts)
  if (isObject(ctx.capabilities.prompts)) {
    await probe('prompt-name', `prompts/get of ${NO_SUCH_PROMPT}`, 'prompts/get', { name: NO_SUCH_PROMPT }, named(ctx, NO_SUCH_PROMPT))
    if (withArgs) await probe('prompt-arguments', `prompts/get of ${withArgs} without its required arguments`, 'prompts/get', { name: withArgs, arguments: {} }, named(ctx, withArgs))
  }
  if (isObject(ctx.capabilities.completions)) {
    await probe('completion-name', `completion/complete for ${NO_SUCH_PROMPT}`, 'completion/complete', { ref: { type: 'ref/prompt', name: NO_SUCH_PROMPT }, argument: { name: 'value', value: '' } })
    await probe('completion-arguments', 'completion/complete without its argument', 'completion/complete', { ref: { type: 'ref/prompt', name: withArgs ?? NO_SUCH_PROMPT } })
  }
  if (isObject(ctx.capabilities.tools)) await probe('cursor', `tools/list with cursor ${INVALID_CURSOR}`, 'tools/list', { cursor: INVALID_CURSOR })
  await probe('log-level', `server/discover with ${LOG_LEVEL} ${NO_SUCH_LEVEL}`, 'server/discover', { _meta: { [LOG_LEVEL]: NO_SUCH_LEVEL } })
  return probes
}

export async function runProbes(ctx: ProbeContext): Promise<CheckResult[]> {
  const { send, revision } = ctx
  const listOf = (f: Feature) => ctx.lists.find((l) => l.feature === f)?.outcome
  const probes = await badInput(ctx, listOf)

  const completion = isObject(ctx.capabilities.completions) ? undefined : await send('completion/complete (completions undeclared)', 'completion/complete', { ref: { type: 'ref/prompt', name: NO_SUCH_PROMPT }, argument: { name: 'value', value: '' }, _meta: meta(revision) })

  const tools = listOf('tools')
  const again = tools?.kind === 'result' ? await send('tools/list again', 'tools/list', { _meta: meta(revision) }) : undefined

  let read: Labelled | undefined
  let templates: RpcOutcome | undefined
  let invalid: RpcOutcome | undefined
  const resources = listOf('resources')
  if (resources?.kind === 'result') {
    // Over HTTP the URI goes in Mcp-Name too: one of plain visible ASCII needs no encoding.
    const uri = entries(resources, 'resources').map((r) => r.uri).find((u): u is string => typeof u === 'string' && (!ctx.wire.http || HEADER_SAFE.test(u)))
    if (uri !== undefined) {
      const label = `resources/read of ${uri}`
      read = { label, outcome: await send(label, 'resources/read', { uri, _meta: meta(revision) }, named(ctx, uri)) }
    }
    templates = await send('resources/templates/list', 'resources/templates/list', { _meta: meta(revision) })
    // Plain ASCII with inner spaces only: a header may carry it as it is.
    invalid = await send(`resources/read of ${INVALID_URI}`, 'resources/read', { uri: INVALID_URI, _meta: meta(revision) }, named(ctx, INVALID_URI))
  }

  const chains = await followPages(ctx.lists, revision, send)
  const prompts = isObject(ctx.capabilities.prompts) ? await getPrompts(ctx, listOf('prompts')) : []

  const nameProbes = ctx.wire.http ? await probeNameHeader(ctx.wire.http, revision, ctx.timeoutMs, { resources, prompts: listOf('prompts') }, send) : undefined

  return [judgeStandardErrors(probes), judgeCapabilityDeclared(ctx.undeclared, completion), judgeToolList(tools, again), judgeResourceRead(resources, read, templates, invalid), judgeNameHeader(nameProbes, ctx.wire.transport), judgePromptContent(prompts, isObject(ctx.capabilities.prompts)), judgePages(chains)]
}
