// The scored client scenarios of the official suite that the plugin does not pass yet, per frozen
// requirement set, each with the reason and the issue that closes it. test/official holds the
// plugin to exactly this list: a scenario that fails without an entry fails the test, and so does
// an entry whose scenario now passes (remove it). Nothing here is "cannot apply to a bridge".

const CUSTOM_HEADERS = 'needs SEP-2243 custom headers at 2026-07-28 over Streamable HTTP: parameters a tool marks with x-mcp-header mirrored into Mcp-Param-* headers, and tools whose x-mcp-header is invalid excluded; the plugin sends tools/list and tools/call as plain requests, past the SDK code that does both (issue 33)'

export const KNOWN_GAPS = {
  '2025-11-25': {},
  '2026-07-28': {
    'http-custom-headers': CUSTOM_HEADERS,
    'http-invalid-tool-headers': CUSTOM_HEADERS,
  },
}
