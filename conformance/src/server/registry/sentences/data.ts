/**
 * The extracted keyword sentences of each revision (scripts/extract-spec-sentences.mjs). Read
 * from the source tree, also when this module runs from dist/: both lie four levels below the
 * package root, and only the docs script and the tests load them, never a run of the kit.
 */
import { readFileSync } from 'node:fs'
import type { SentenceFile } from './types.ts'

/** The revisions whose sentences are extracted, oldest first (2026-07-28: judged by modern/'s registry). */
export const EXTRACTED_REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const
export type ExtractedRevision = (typeof EXTRACTED_REVISIONS)[number]

const DIR = new URL('../../../../src/server/registry/sentences/', import.meta.url)

export function loadSentences(revision: ExtractedRevision): SentenceFile {
  return JSON.parse(readFileSync(new URL(`${revision}.json`, DIR), 'utf8')) as SentenceFile
}
