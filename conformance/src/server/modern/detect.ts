/**
 * Pure: which era a server speaks, told by the signal MCP 2026-07-28 defines for it: "a recognized
 * modern JSON-RPC error (such as UnsupportedProtocolVersionError) identifies a modern server […].
 * Anything else identifies a legacy server" (basic/versioning, Backward Compatibility), and a
 * DiscoverResult answering server/discover (transports/stdio, Backward Compatibility). The kit
 * opens every run with a legacy initialize, so only a refused initialize leads here.
 */
import { isObject } from '../check.ts'
import { cut } from '../quote.ts'
import { isModernRevision, LATEST_MODERN_REVISION, type ModernRevision } from '../spec.ts'
import type { RpcOutcome } from '../wire/types.ts'

/** UnsupportedProtocolVersion, the modern error that lists the versions a server supports. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022

const REVISION_FORMAT = /^\d{4}-\d{2}-\d{2}$/
/** Untrusted lists are bounded before any message or report shows them. */
const MAX_VERSIONS = 10
const MAX_VERSION_CHARS = 40

/**
 * The versions a recognized modern answer lists: a DiscoverResult's supportedVersions, or the
 * data.supported of an UnsupportedProtocolVersionError; undefined for anything else.
 */
export function modernSignal(outcome: RpcOutcome | undefined): string[] | undefined {
  if (outcome?.kind === 'result' && isObject(outcome.result)) return versions(outcome.result.supportedVersions)
  if (outcome?.kind === 'error' && outcome.error.code === UNSUPPORTED_PROTOCOL_VERSION && isObject(outcome.error.data)) return versions(outcome.error.data.supported)
  return undefined
}

function versions(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) return undefined
  return (value as string[]).slice(0, MAX_VERSIONS).map((v) => cut(v, MAX_VERSION_CHARS))
}

/** A modern revision is one of 2026-07-28 or later (revisions are ISO dates, so string order is release order). */
export function isModernVersion(version: string): boolean {
  return REVISION_FORMAT.test(version) && version >= LATEST_MODERN_REVISION
}

export type Era =
  /** Speaks only modern revisions; `revision` is the newest of them the kit can judge, if any. */
  | { era: 'modern-only'; supported: string[]; revision?: ModernRevision }
  /** Anything else: a legacy server, a dual-era one, or no recognizable answer. Judged as today. */
  | { era: 'other' }

/**
 * The era of a server that refused the legacy initialize, from that refusal and the answer to the
 * server/discover probe (undefined when none was sent). The probe is the stronger evidence: it
 * asked in the modern way. Only a server whose every supported version is modern is modern-only;
 * one that also lists a legacy version had to counter-offer it, and its refusal stays judged.
 */
export function eraOf(initialize: RpcOutcome, discover: RpcOutcome | undefined): Era {
  const supported = modernSignal(discover) ?? modernSignal(initialize)
  if (!supported || !supported.every(isModernVersion)) return { era: 'other' }
  const revision = supported.filter(isModernRevision).sort().at(-1)
  return revision ? { era: 'modern-only', supported, revision } : { era: 'modern-only', supported }
}
