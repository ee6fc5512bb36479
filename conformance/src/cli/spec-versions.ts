import type { ModernRevision, Revision } from '../server/spec.ts'

/** The revisions --spec-version takes, oldest first (the order of `all`). Apart, so the help page quotes them without loading the parser. */
export const SPEC_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const satisfies readonly (Revision | ModernRevision)[]
export type SpecVersion = (typeof SPEC_VERSIONS)[number]
