/** Pure verdict on the URIs of the listed resources that use a custom scheme (RFC 3986). */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import { RESOURCES_URI_SYNTAX } from '../registry/features.ts'
import { customUriVerdict } from '../uri-syntax.ts'

/** `failedAt`: the check that reports why the listing stopped, when it did; the items seen are judged all the same. */
export function judgeResourceUris(items: unknown[], failedAt: string | undefined, version: string): CheckResult {
  const j = judge(RESOURCES_URI_SYNTAX, version)
  if (!j.applies) return j.notInRevision()
  const uris = items.flatMap((item) => (isObject(item) && typeof item.uri === 'string' ? [item.uri] : []))
  const judged = uris.map((uri) => ({ uri, verdict: customUriVerdict(uri) })).filter((x) => x.verdict.judged)
  const bad = judged.flatMap((x) => (x.verdict.judged && x.verdict.problem ? [`${show(x.uri, 80)} (${x.verdict.problem})`] : []))
  if (bad.length) return j.breach(`${count(bad.length, 'listed resource URI')} with a custom scheme ${bad.length === 1 ? 'breaks' : 'break'} RFC 3986: ${list(bad, 3)}`, { details: { uris: bad.slice(0, 10) } })
  if (judged.length === 0) {
    if (failedAt !== undefined && uris.length === 0) return j.notTestable(failedAt, 'resources/list could not be read')
    return j.skip(`none of the ${count(uris.length, 'listed resource URI')} has a custom scheme; nothing to judge`)
  }
  return j.pass(`${count(judged.length, 'listed resource URI')} with a custom scheme, each as RFC 3986 allows`)
}
