/** Pure: what 2026-07-28 asks of a server that speaks only it, when traffic of an earlier Streamable HTTP revision reaches it. */
import type { ModernCheckDef } from './types.ts'

const LEAD = 'A server that supports only this revision and receives such traffic from an older client SHOULD respond as follows:'

export const EARLIER_TRAFFIC: ModernCheckDef = {
  id: 'modern/earlier-traffic',
  title: 'traffic of an earlier HTTP revision: GET and DELETE get 405, a session id and Last-Event-ID are ignored',
  how: 'over HTTP, against a server whose DiscoverResult lists only modern revisions: GET and DELETE of the endpoint (each answered 405), server/discover with Mcp-Session-Id: mcp-conformance-stale (served, no Mcp-Session-Id in the answer), and server/discover with Last-Event-ID: 1 (served)',
  rules: [
    { topic: 'streamable-http#earlier-revisions', keyword: 'SHOULD', quote: `${LEAD} HTTP GET or DELETE to the MCP endpoint: respond with 405 Method Not Allowed.` },
    { topic: 'streamable-http#earlier-revisions', keyword: 'SHOULD', quote: `${LEAD} An Mcp-Session-Id header on a request: ignore it, and do not mint or echo session IDs.`, case: 'session' },
    { topic: 'streamable-http#earlier-revisions', keyword: 'SHOULD', quote: `${LEAD} A Last-Event-ID header: ignore it; streams are not resumable.`, case: 'last-event-id' },
  ],
}
