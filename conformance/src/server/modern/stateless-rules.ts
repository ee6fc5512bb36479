/**
 * Pure: the 2026-07-28 sentence that a server keeps no context from one request to the next,
 * judged by ./stateless.ts on a connection of its own whose first request is a list.
 */
import { REPLY } from './rules.ts'
import type { ModernCheckDef } from './types.ts'

export const STATELESS: ModernCheckDef = {
  id: 'modern/stateless',
  title: 'a request is served without earlier requests on its connection',
  how: 'over stdio, a second server process whose first message is the list request of a declared feature (tools, else prompts, else resources), with the full _meta of the revision; a result passes. Any other answer is put to the test: server/discover on that same process, then the list request again; served only then, it was served on the strength of the earlier request. Over HTTP the kit cannot tell one connection from another (its HTTP client pools them): not testable',
  rules: [
    {
      topic: 'basic#statelessness',
      keyword: 'MUST NOT',
      quote: 'Servers MUST NOT rely on prior requests over the same connection to establish context (e.g., capabilities, protocol version, client identity).',
    },
    REPLY,
  ],
  note: 'The same observation shows a server that requires a client to reuse one process for related operations (“Servers SHOULD NOT require that a client reuse the same connection or process to perform related operations”); it is reported under the MUST NOT above, the stronger of the two.',
}
