import type { WireEntry } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { checkAsks, formProblems } from '../src/client/asks.ts'
import { checkElicitationComplete } from '../src/client/elicitation-complete.ts'

// The wire of a client answering the fixture's asks, as the fixture logs it (asks.ts judges it).
const entry = (dir: 'recv' | 'send', msg: object): WireEntry => ({ dir, msg: { jsonrpc: '2.0', ...msg } as WireEntry['msg'] })
const initialize = (capabilities: object) => entry('recv', { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'c', version: '1' } } })
const negotiated = entry('send', { id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } })
const ask = (id: string, method: string, params: object = {}) => entry('send', { id, method, params })
const answer = (id: string, body: object) => entry('recv', { id, ...body })
const status = (wire: WireEntry[], id: string) => checkAsks(wire).find((check) => check.id === id)?.status

describe('asks: how a client answers roots, sampling and elicitation', () => {
  it('judges nothing where the server asked nothing', () => {
    expect(checkAsks([initialize({}), negotiated])).toEqual([])
  })

  it('fails a client that answers an ask of a capability it never declared, and passes a refusal', () => {
    const asked = [initialize({}), negotiated, ask('s1', 'elicitation/create', { message: 'name?', requestedSchema: { type: 'object', properties: {} } })]
    expect(status([...asked, answer('s1', { result: { action: 'accept', content: {} } })], 'asks/elicitation-undeclared')).toBe('fail')
    expect(status([...asked, answer('s1', { error: { code: -32601, message: 'Method not found' } })], 'asks/elicitation-undeclared')).toBe('pass')
  })

  it('warns a roots refusal with another code than -32601 (a SHOULD)', () => {
    const wire = [initialize({}), negotiated, ask('s1', 'roots/list'), answer('s1', { error: { code: -32603, message: 'no' } })]
    expect(status(wire, 'asks/roots-undeclared')).toBe('warn')
  })

  it('fails a URL-mode ask answered by a client that declared form only, and passes -32602', () => {
    const asked = [initialize({ elicitation: { form: {} } }), negotiated, ask('s1', 'elicitation/create', { mode: 'url', message: 'go', url: 'https://example.com/', elicitationId: 'e' })]
    expect(status([...asked, answer('s1', { result: { action: 'accept' } })], 'asks/elicitation-undeclared-mode')).toBe('fail')
    expect(status([...asked, answer('s1', { error: { code: -32602, message: 'mode' } })], 'asks/elicitation-undeclared-mode')).toBe('pass')
  })

  it('reads 2026-07-28 asks from an input_required result and the retry that answers them', () => {
    const modern = (roots: object[]) => [
      entry('recv', { id: 'c1', method: 'tools/call', params: { name: 'work', _meta: { 'io.modelcontextprotocol/clientCapabilities': { roots: {} } } } }),
      entry('send', { id: 'c1', result: { resultType: 'input_required', inputRequests: { 'ask-1': { method: 'roots/list' } }, requestState: 'x' } }),
      entry('recv', { id: 'c2', method: 'tools/call', params: { name: 'work', inputResponses: { 'ask-1': { roots } }, requestState: 'x', _meta: { 'io.modelcontextprotocol/clientCapabilities': { roots: {} } } } }),
    ]
    expect(status(modern([{ uri: 'file:///home/me' }]), 'asks/roots-file-uri')).toBe('pass')
    expect(status(modern([{ uri: 'https://example.com/' }]), 'asks/roots-file-uri')).toBe('fail')
  })

  it('checks accepted form content against the requested schema', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] }
    expect(formProblems(schema, { name: 'Ada', age: 36 })).toEqual([])
    expect(formProblems(schema, { age: 3.5 })).toHaveLength(2)
  })
})

describe('asks: capabilities a client uses', () => {
  it('fails roots/list_changed from a client that did not declare roots.listChanged', () => {
    const changed = entry('recv', { method: 'notifications/roots/list_changed' })
    expect(status([initialize({ roots: {} }), negotiated, changed], 'asks/roots-list-changed-declared')).toBe('fail')
    expect(status([initialize({ roots: { listChanged: true } }), negotiated, changed], 'asks/roots-list-changed-declared')).toBe('pass')
  })

  it('fails a tool-enabled sampling request answered by a client without sampling.tools', () => {
    const asked = [initialize({ sampling: {} }), negotiated, ask('s1', 'sampling/createMessage', { messages: [], maxTokens: 5, tools: [{ name: 't', inputSchema: { type: 'object' } }] })]
    expect(status([...asked, answer('s1', { result: { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' } })], 'asks/sampling-tools-undeclared')).toBe('fail')
    expect(status([...asked, answer('s1', { error: { code: -32602, message: 'no tools' } })], 'asks/sampling-tools-undeclared')).toBe('pass')
  })
})

describe('asks: notifications/elicitation/complete for unknown or already-completed ids', () => {
  const urlAsk = ask('s1', 'elicitation/create', { mode: 'url', message: 'go', url: 'https://example.com/', elicitationId: 'e1' })
  const complete = (elicitationId: string) => entry('send', { method: 'notifications/elicitation/complete', params: { elicitationId } })
  const asked = [initialize({ elicitation: { url: {} } }), negotiated, urlAsk, answer('s1', { result: { action: 'accept' } })]
  const judged = (wire: WireEntry[], revision = '2025-11-25') => checkElicitationComplete(wire, revision)[0]?.status

  it('passes a client that sends nothing back, and judges nothing for a known id or at another revision', () => {
    expect(judged([...asked, complete('e1'), complete('nope'), complete('e1')])).toBe('pass')
    expect(judged([...asked, complete('e1')])).toBeUndefined()
    expect(judged([...asked, complete('nope'), answer('x', { result: {} })], '2026-07-28')).toBeUndefined()
  })

  it('fails a client that answers one, an unknown id or one completed already', () => {
    expect(judged([...asked, complete('nope'), entry('recv', { id: null, error: { code: -32602, message: 'unknown elicitation' } })])).toBe('fail')
    expect(judged([...asked, complete('e1'), complete('e1'), entry('recv', { id: null, result: {} })])).toBe('fail')
    // An id a -32042 error named is known: its completion is the client's to act on (MAY).
    const required = entry('send', { id: 'c9', error: { code: -32042, message: 'sign in', data: { elicitations: [{ mode: 'url', elicitationId: 'r1', url: 'https://example.com/', message: 'in' }] } } })
    expect(judged([...asked, required, complete('r1')])).toBeUndefined()
  })
})
