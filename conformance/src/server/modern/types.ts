/** Pure: the shape of a modern check and of the 2026-07-28 sentence each of its rules enforces. */
import type { Keyword } from '../registry/types.ts'
import type { AnyModernTopic } from './topics.ts'

export interface ModernRule {
  topic: AnyModernTopic
  keyword: Keyword
  /** The sentence as 2026-07-28 states it (emphasis and link markup removed). */
  quote: string
  /** Which outcome of the check this sentence governs, when one check judges more than one. */
  case?: string
}

export interface ModernCheckDef {
  id: string
  title: string
  how: string
  /** Empty only for the check that names what the kit does not judge yet (a skip, never a verdict). */
  rules: ModernRule[]
  note?: string
}
