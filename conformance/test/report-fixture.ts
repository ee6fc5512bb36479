/** A small RunReport full of hostile strings, shared by the formatter and browser tests. */
import { FORMAT_VERSION, type RunReport } from '../src/model.ts'

export const HOSTILE = '<script>alert("x")</script> & \'quotes\' ]]> \u0001\u0008 `tick` \uD800'

export function hostileReport(): RunReport {
  return {
    formatVersion: FORMAT_VERSION,
    tool: { name: 'mcp-conformance', version: '0.1.0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1234,
    suites: [
      {
        id: 'server',
        title: `Server checks: ${HOSTILE}`,
        kind: 'server',
        target: `node evil.js ${HOSTILE}`,
        transport: 'stdio',
        durationMs: 1200,
        checks: [
          { id: 'lifecycle/initialize', title: 'initialize works', status: 'pass', message: 'fine', spec: { ref: 'MCP 2025-11-25 lifecycle', url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle' } },
          {
            id: 'tools/names-unique',
            title: `names ${HOSTILE}`,
            status: 'fail',
            message: `duplicate ${HOSTILE}`,
            spec: { ref: 'evil link', url: 'javascript:alert(1)' },
            details: { name: `</pre><img src=x onerror=alert(1)>${HOSTILE}` },
            wire: [{ dir: 'server→client', message: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: HOSTILE }] } } }],
          },
          { id: 'tools/call/x', title: 'call', status: 'fail', message: 'known problem', expected: true },
          { id: 'tools/descriptions', title: 'described', status: 'warn', message: `missing for ${HOSTILE}` },
          { id: 'prompts/list', title: 'prompts', status: 'skip', message: 'not declared' },
          { id: 'harness/unexpected', title: 'harness', status: 'error', message: 'boom\nsecond line' },
        ],
      },
    ],
    summary: { pass: 1, fail: 2, warn: 1, skip: 1, error: 1 },
    staleBaseline: ['server:tools/gone'],
    exitCode: 2,
  }
}
