/** Pure: the shape of the extracted keyword sentences (sentences/<revision>.json). */

/** One keyword sentence of a page, as scripts/extract-spec-sentences.mjs wrote it. */
export interface Sentence {
  /** `page#anchor/n`: the n-th keyword sentence of that section. */
  id: string
  page: string
  anchor: string
  /** The strongest RFC 2119 keyword the sentence (with its keyword lead) states. */
  keyword: string
  /** Whom each keyword binds, by the extractor's party rule. */
  parties: string[]
  /** The server is bound (by the rule, or by a reviewed override whose reason is `override`). */
  binds: boolean
  override?: string
  /** The text the sentence hangs from (a list's lead without a keyword, or a parent item). */
  lead?: string
  /** The wording, markup removed; a list item follows its keyword lead ("Servers MUST: Validate …"). */
  text: string
  /** Checks that judge it although no rule of theirs quotes it (kept by hand). */
  checks?: string[]
  /** Why it is not judged: a key of REASONS (kept by hand). */
  reason?: string
}

export interface SentenceFile {
  revision: string
  source: { repository: string; commit: string; path: string }
  note: string
  sentences: Sentence[]
}
