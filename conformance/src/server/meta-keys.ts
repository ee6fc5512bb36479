/**
 * Pure: the `_meta` key names a message carries, and what the base protocol's naming rules make
 * of each (MCP 2025-06-18 on, basic/index#meta): an optional prefix of dot-separated labels ending
 * in "/", then a name that, unless empty, begins and ends with a letter or digit.
 */

export type MetaKeyFault = 'format' | 'reverse-dns'

export interface MetaKeyProblem {
  fault: MetaKeyFault
  /** What is wrong with the key, for the report. */
  why: string
}

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/
const NAME = /^[A-Za-z0-9](?:.*[A-Za-z0-9])?$/s

/**
 * Top-level domains common enough to tell "example.com/" (forward) from "com.example/" (reverse).
 * A prefix whose labels include none of them says nothing about its order, so it is not judged.
 */
const TLDS = new Set(['com', 'org', 'net', 'io', 'dev', 'ai', 'app', 'co', 'edu', 'gov', 'info', 'sh', 'tech', 'cloud'])

/**
 * The fault of one key, the MUST (format) before the SHOULD (reverse DNS). The prefix ends at the
 * first "/": the rules give the name no "/" but do not forbid one, so "a/b/c" is read as prefix
 * "a/" and name "b/c" rather than failed for a prefix label "a/b".
 */
export function metaKeyProblem(key: string): MetaKeyProblem | undefined {
  const slash = key.indexOf('/')
  const name = slash < 0 ? key : key.slice(slash + 1)
  if (slash >= 0) {
    const labels = key.slice(0, slash).split('.')
    const bad = labels.find((label) => !LABEL.test(label))
    if (bad !== undefined) {
      const what = bad === '' ? 'an empty label' : `the label ${JSON.stringify(bad)}, which does not start with a letter and end with a letter or digit (or has a character other than a letter, digit or hyphen)`
      return { fault: 'format', why: `its prefix has ${what}` }
    }
  }
  if (name !== '' && !NAME.test(name)) return { fault: 'format', why: `its name ${JSON.stringify(name)} does not begin and end with a letter or digit` }
  if (slash >= 0) {
    const labels = key.slice(0, slash).split('.')
    const first = labels[0]!.toLowerCase()
    const last = labels[labels.length - 1]!.toLowerCase()
    if (labels.length > 1 && TLDS.has(last) && !TLDS.has(first)) return { fault: 'reverse-dns', why: `its prefix ends in the top-level domain "${last}": forward, not reverse, DNS notation` }
  }
  return undefined
}

/** Subtrees of free-form data (schemas, tool output, log payloads, error data) whose "_meta" members are not MCP's. */
const FREE_FORM = new Set(['inputSchema', 'outputSchema', 'requestedSchema', 'structuredContent', 'data', 'experimental', 'arguments'])

/** How deep and how many nodes a message is searched: a hostile message must not cost without end. */
export const META_SCAN_LIMITS = { depth: 64, nodes: 20_000 }

/** Every `_meta` key in a message (keys of free-form data excluded), within META_SCAN_LIMITS. */
export function metaKeysOf(message: unknown, limits = META_SCAN_LIMITS): string[] {
  const keys: string[] = []
  const stack: Array<[unknown, number]> = [[message, 0]]
  let nodes = 0
  while (stack.length > 0 && nodes < limits.nodes) {
    const [value, depth] = stack.pop()!
    nodes++
    if (typeof value !== 'object' || value === null || depth > limits.depth) continue
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], depth + 1])
      continue
    }
    const entries = Object.entries(value as Record<string, unknown>)
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i]!
      if (k === '_meta' && typeof v === 'object' && v !== null && !Array.isArray(v)) keys.push(...Object.keys(v))
      else if (!FREE_FORM.has(k)) stack.push([v, depth + 1])
    }
  }
  return keys
}

/** A key that breaks a naming rule, with the message that carried it. */
export interface MetaKeyFinding {
  key: string
  fault: MetaKeyFault
  why: string
  message: Record<string, unknown>
}

/** Findings kept in full per fault (the evidence); every one is counted. */
export const KEEP_META_FINDINGS = 10

/** Bookkeeping of the `_meta` keys one connection's server sent: counted, and the first faults kept. */
export class MetaKeyTally {
  /** Keys seen in all, and those with a prefix (the ones the reverse-DNS rule can judge). */
  keys = 0
  prefixed = 0
  readonly faults: Record<MetaKeyFault, number> = { format: 0, 'reverse-dns': 0 }
  readonly kept: MetaKeyFinding[] = []

  scan(message: Record<string, unknown>): void {
    for (const key of metaKeysOf(message)) {
      this.keys++
      if (key.includes('/')) this.prefixed++
      const problem = metaKeyProblem(key)
      if (!problem) continue
      this.faults[problem.fault]++
      if (this.faults[problem.fault] <= KEEP_META_FINDINGS) this.kept.push({ key, ...problem, message })
    }
  }
}
