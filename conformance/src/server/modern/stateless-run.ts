/**
 * The exchanges of modern/stateless: a fresh stdio process (opened by the run, which shuts it
 * down) whose first request is a list, each request bounded by the run's request timeout.
 */
import { isObject } from '../check.ts'
import type { ModernRevision } from '../spec.ts'
import type { RpcOutcome, Wire } from '../wire/types.ts'
import { meta } from './request-meta.ts'
import type { StatelessProbe } from './stateless.ts'

const FEATURES = ['tools', 'prompts', 'resources'] as const

export type Reopen = () => Promise<Wire | undefined>

export async function probeStateless(transport: Wire['transport'], reopen: Reopen | undefined, revision: ModernRevision, timeoutMs: number, discovered: RpcOutcome): Promise<StatelessProbe> {
  if (transport !== 'stdio') return { kind: 'not-testable', why: 'over HTTP the kit’s client pools its connections, so it cannot send a request on a connection no earlier request used' }
  const capabilities = discovered.kind === 'result' && isObject(discovered.result) && isObject(discovered.result.capabilities) ? discovered.result.capabilities : {}
  const feature = FEATURES.find((f) => isObject(capabilities[f]))
  if (!feature) return { kind: 'not-testable', why: 'the DiscoverResult declares no tools, prompts or resources to list' }
  const fresh = reopen ? await reopen() : undefined
  if (!fresh) return { kind: 'not-testable', why: 'a second server process could not be started' }
  const method = `${feature}/list`
  const first = await fresh.request(method, { _meta: meta(revision) }, timeoutMs)
  if (first.kind !== 'error') return { kind: 'probed', method, first }
  const discover = await fresh.request('server/discover', { _meta: meta(revision) }, timeoutMs)
  const again = await fresh.request(method, { _meta: meta(revision) }, timeoutMs)
  return { kind: 'probed', method, first, discover, again }
}
