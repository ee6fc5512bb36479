/**
 * Pure: the 2026-07-28 sentences on the pages of a list past the first (one cacheScope for all
 * of them, cursors that lead on), judged by ./pages.ts on the cursor chains ./pages-run.ts follows.
 */
import { REPLY } from './rules.ts'
import type { ModernCheckDef } from './types.ts'

export const PAGES: ModernCheckDef = {
  id: 'modern/pages',
  title: 'every page of a list carries the first page’s cacheScope, and its cursors lead on to the end',
  how: 'for each of tools/list, prompts/list and resources/list the DiscoverResult declares whose first page has a nextCursor: each nextCursor is followed to the last page (at most 100 pages, as for a legacy server); every page’s cacheScope must be the first page’s; a cursor the server issued that it then refuses, or one that comes back (a loop, so the listing never ends), is no stable cursor. A list that fits one page has nothing to judge',
  rules: [
    {
      topic: 'caching#interaction-with-pagination',
      keyword: 'MUST',
      quote: 'Servers MUST apply the same cacheScope to all response pages for a given list request. For example, if the first page of a tools/list response has cacheScope: "private", all subsequent pages for that request MUST also be "private".',
      case: 'scope',
    },
    { topic: 'pagination#implementation-guidelines', keyword: 'SHOULD', quote: 'Servers SHOULD: Provide stable cursors', case: 'stable' },
    REPLY,
  ],
}
