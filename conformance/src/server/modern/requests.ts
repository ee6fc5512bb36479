/**
 * The modern run past server/discover: one request per rule of rules.ts, each bounded by the run's
 * request timeout, judged in verdicts.ts. Never throws. Over HTTP the probes that must send other
 * headers than a well-behaved client go through a second wire to the same endpoint.
 */
import type { CheckResult } from '../../model.ts'
import { isObject } from '../check.ts'
import type { ToolCall } from '../probe/tools.ts'
import type { ModernRevision } from '../spec.ts'
import type { HttpWire } from '../wire/http.ts'
import type { ServerWire } from '../wire/server-wire.ts'
import type { RpcOutcome, Wire } from '../wire/types.ts'
import { isModernVersion } from './detect.ts'
import { makeCalls } from './call-run.ts'
import { judgeParamHeaders } from './param-judge.ts'
import { judgeParamNumeric } from './param-numeric.ts'
import { judgeToolCalls } from './calls.ts'
import { judgeEarlierTraffic, sendEarlierTraffic } from './earlier.ts'
import { listen } from './listen.ts'
import { judgeMetaKeys, judgeMissingCapability, judgeResultServerInfo } from './meta.ts'
import { runProbes } from './probe-run.ts'
import { CLIENT_CAPABILITIES, CLIENT_INFO_KEY, meta, variant } from './request-meta.ts'
import { judgeXMcpHeader } from './x-mcp-header.ts'
import { MAY_ASK_FOR_INPUT, judgeClientInfoOptional, judgeErrorIds, judgeHeaderMismatch, judgeInputRequired, judgeListen, judgeLists, judgeMethodsNotFound, judgeMetaRequired, judgeOrigin, judgeResourceMissing, judgeResultTypes, judgeToolNames, type Feature, type Labelled } from './verdicts.ts'

/** Methods 2026-07-28 removed ("ping and logging/setLevel removed"; resources/subscribe gave way to subscriptions/listen), with params they once took. */
const REMOVED: [string, Record<string, unknown>][] = [
  ['ping', {}],
  ['logging/setLevel', { level: 'info' }],
  ['resources/subscribe', { uri: 'mcp-conformance://missing/subscribe' }],
  ['resources/unsubscribe', { uri: 'mcp-conformance://missing/subscribe' }],
]
const FEATURES: Feature[] = ['tools', 'prompts', 'resources']
const FOREIGN_ORIGIN = 'http://evil.example'
const MISSING_URI = 'mcp-conformance://missing/resource'
/** A revision the header names while the body names another: both published, so neither is made up. */
const OTHER_REVISION = '2025-11-25'

function declared(discover: RpcOutcome): Record<string, unknown> {
  return discover.kind === 'result' && isObject(discover.result) && isObject(discover.result.capabilities) ? discover.result.capabilities : {}
}

/** The checks of rules.ts, given the run's DiscoverResult (`discover`) and its unsupported-version probe (`refused`). */
export async function runRequests(wire: ServerWire, revision: ModernRevision, discover: RpcOutcome, refused: RpcOutcome, timeoutMs: number, calls: readonly ToolCall[] = []): Promise<CheckResult[]> {
  const exchanges: Labelled[] = [
    { label: 'server/discover', outcome: discover },
    { label: 'server/discover for an unsupported version', outcome: refused },
  ]
  const send = async (label: string, method: string, params: Record<string, unknown>, via: Wire = wire) => {
    const outcome = await via.request(method, params, timeoutMs)
    exchanges.push({ label, outcome, ...(MAY_ASK_FOR_INPUT.includes(method) ? { mayAskForInput: true } : {}) })
    return outcome
  }
  const capabilities = declared(discover)
  // The unsupported-version probe left its made-up revision in the wire's header.
  if (wire.http) {
    wire.http.protocolVersion = revision
    wire.http.methodHeader = true
  }

  const metaMissing = await send('server/discover without clientCapabilities', 'server/discover', { _meta: meta(revision, CLIENT_CAPABILITIES) })
  const noClientInfo = await send('server/discover without clientInfo', 'server/discover', { _meta: meta(revision, CLIENT_INFO_KEY) })

  const lists: (Labelled & { feature: Feature })[] = []
  for (const feature of FEATURES.filter((f) => isObject(capabilities[f]))) {
    const label = `${feature}/list`
    lists.push({ label, feature, outcome: await send(label, label, { _meta: meta(revision) }) })
  }

  const unimplemented: Labelled[] = []
  for (const [method, params] of REMOVED) {
    unimplemented.push({ label: method, outcome: await send(method, method, { ...params, _meta: meta(revision) }) })
  }
  const undeclared: (Labelled & { feature: Feature })[] = []
  for (const feature of FEATURES.filter((f) => !(f in capabilities))) {
    const method = `${feature}/list`
    undeclared.push({ label: method, feature, outcome: await send(method, method, { _meta: meta(revision) }) })
  }
  unimplemented.push(...undeclared)

  let missingResource: RpcOutcome | undefined
  if (isObject(capabilities.resources)) {
    // Mcp-Name mirrors params.uri for resources/read over HTTP.
    const via = wire.http ? variant(wire.http, revision, { 'mcp-name': MISSING_URI }, timeoutMs) : wire
    missingResource = await send(`resources/read of ${MISSING_URI}`, 'resources/read', { uri: MISSING_URI, _meta: meta(revision) }, via)
  }

  // Only the calls the run was allowed to make (--call), as for a legacy server: a tool may act on the world.
  const { called, made, invalid, params, paramProbe, numericProbe } = await makeCalls(wire, revision, timeoutMs, calls, lists.find((l) => l.feature === 'tools')?.outcome, send)

  const probed = await runProbes({ wire, revision, timeoutMs, capabilities, lists, undeclared, send })

  const versions = discover.kind === 'result' && isObject(discover.result) && Array.isArray(discover.result.supportedVersions) ? discover.result.supportedVersions : []
  const modernOnly = versions.length > 0 && versions.every((v) => typeof v === 'string' && isModernVersion(v))
  const http = wire.http ? await httpExchanges(wire.http, revision, timeoutMs, send, modernOnly) : undefined

  const tools = lists.find((l) => l.feature === 'tools')?.outcome
  return [
    judgeResultTypes(exchanges, isObject(capabilities.extensions) && Object.keys(capabilities.extensions).length > 0),
    judgeErrorIds(exchanges),
    judgeMetaRequired(metaMissing, wire.transport),
    judgeClientInfoOptional(noClientInfo),
    judgeMethodsNotFound(unimplemented, wire.transport),
    ...(http?.checks ?? []),
    judgeLists(lists),
    judgeToolNames(tools),
    judgeXMcpHeader(tools, revision),
    judgeResourceMissing(missingResource, MISSING_URI),
    judgeListen(http?.listened, wire.transport),
    judgeInputRequired(called),
    judgeToolCalls(made, invalid, capabilities),
    judgeParamHeaders(wire.transport, params, paramProbe),
    judgeParamNumeric(wire.transport, numericProbe),
    ...probed,
    judgeMetaKeys(exchanges, capabilities.extensions),
    judgeResultServerInfo(exchanges),
    judgeMissingCapability(exchanges, wire.transport),
    judgeEarlierTraffic(http?.earlier, modernOnly),
  ]
}

type Send = (label: string, method: string, params: Record<string, unknown>, via?: Wire) => Promise<RpcOutcome>

/**
 * What only Streamable HTTP can be asked: headers that contradict the body, a foreign Origin, the
 * subscriptions/listen stream and, for a server of modern revisions only, an earlier revision's traffic.
 */
async function httpExchanges(wire: HttpWire, revision: ModernRevision, timeoutMs: number, send: Send, modernOnly: boolean) {
  const method = variant(wire, revision, { 'mcp-method': 'tools/list' }, timeoutMs, false)
  const version = variant(wire, OTHER_REVISION, {}, timeoutMs)
  const mismatches = [
    { kind: 'method' as const, label: 'server/discover with Mcp-Method: tools/list', outcome: await send('server/discover with Mcp-Method: tools/list', 'server/discover', { _meta: meta(revision) }, method) },
    { kind: 'version' as const, label: `server/discover with MCP-Protocol-Version: ${OTHER_REVISION} (body ${revision})`, outcome: await send(`server/discover with MCP-Protocol-Version: ${OTHER_REVISION}`, 'server/discover', { _meta: meta(revision) }, version) },
  ]
  // Not in `exchanges`: a 403 body may be an error without an id (streamable-http, Security & Endpoint).
  const origin = await variant(wire, revision, { origin: FOREIGN_ORIGIN }, timeoutMs).request('server/discover', { _meta: meta(revision) }, timeoutMs)
  const checks = [judgeHeaderMismatch(mismatches), judgeOrigin(origin)]
  const listened = await listen(wire, meta(revision), timeoutMs)
  const earlier = modernOnly ? await sendEarlierTraffic(wire, revision, timeoutMs) : undefined
  return { checks, listened, earlier }
}
