/**
 * "Binary data MUST be properly encoded" (resources, security considerations) is judged by
 * resources/read: its result is validated with the revision's ReadResourceResult, whose blob is
 * base64, so a blob that is not base64 fails the check and a base64 one passes.
 */
import { describe, expect, it } from 'vitest'
import { judgeRead } from '../src/server/evaluate/features.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'

const URI = 'file:///logo.png'
const read = (blob: string): RpcOutcome => ({ kind: 'result', result: { contents: [{ uri: URI, mimeType: 'image/png', blob }] }, wire: [] })

describe('a resource read as binary data', () => {
  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('%s: base64 passes, anything else fails under the schema', (version) => {
    expect(judgeRead(URI, read('iVBORw0KGgo='), undefined, version).status).toBe('pass')
    expect(judgeRead(URI, read('not base64 at all!'), undefined, version)).toMatchObject({ status: 'fail', message: expect.stringContaining('not base64'), spec: { keyword: 'SCHEMA' } })
  })
})
