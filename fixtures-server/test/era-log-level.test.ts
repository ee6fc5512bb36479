/** A modern fixture refuses a request whose _meta names a log level that does not exist (logging, Error Handling). */
import { describe, expect, it } from 'vitest'
import { admit } from '../src/era.ts'

const request = (logLevel?: unknown) => ({
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, ...(logLevel === undefined ? {} : { 'io.modelcontextprotocol/logLevel': logLevel }) } },
})

describe('the per-request log level of a modern request', () => {
  it('is served when absent or one of the eight levels', () => {
    expect(admit('modern', request())).toEqual({ serve: 'modern' })
    expect(admit('modern', request('warning'))).toEqual({ serve: 'modern' })
  })

  it('is refused with -32602 and HTTP 400 when it names no level', () => {
    expect(admit('modern', request('verbose'))).toMatchObject({ refuse: { status: 400, code: -32602, message: expect.stringMatching(/logLevel"\] is not a log level$/) } })
    expect(admit('dual', request(3))).toMatchObject({ refuse: { code: -32602 } })
  })
})
