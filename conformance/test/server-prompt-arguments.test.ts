/**
 * What the prompts page asks beyond the schema: "Servers SHOULD validate prompt arguments before
 * processing" (prompts/get without a required argument is refused, with -32602 as error handling
 * asks) and "Resources … MUST include: The appropriate MIME type" for an embedded resource in a
 * prompt message. A real stdio server process (scripted here): correct, or broken one way per mode.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

// Modes: "good"; "lax" serves a prompt without its required argument; "wrong-code" refuses it
// with -32603; "no-mime" embeds a resource without a mimeType.
const SERVER = lineServerSource(
  `const mode = process.argv[2]
const PROMPT = { name: 'summarise', description: 'Summarises a document', arguments: [{ name: 'topic', required: true }] }
const resource = mode === 'no-mime' ? { uri: 'mem://doc', text: 'hello' } : { uri: 'mem://doc', mimeType: 'text/plain', text: 'hello' }
const messages = [{ role: 'user', content: { type: 'text', text: 'Summarise this:' } }, { role: 'user', content: { type: 'resource', resource } }]
const get = (params) => {
  if (params?.name !== 'summarise') return { error: { code: -32602, message: 'Unknown prompt' } }
  if (typeof params.arguments?.topic === 'string' || mode === 'lax') return { result: { messages } }
  return { error: { code: mode === 'wrong-code' ? -32603 : -32602, message: 'Missing required argument: topic' } }
}`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: '2025-11-25', capabilities: { prompts: {}, resources: {} }, serverInfo: { name: 'prompt-server', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} }
      : message.method === 'prompts/list' ? (message.params?.cursor === undefined ? { result: { prompts: [PROMPT] } } : { error: { code: -32602, message: 'Invalid cursor' } })
      : message.method === 'prompts/get' ? get(message.params)
      : message.method === 'resources/list' ? (message.params?.cursor === undefined ? { result: { resources: [{ uri: 'mem://doc', name: 'doc' }] } } : { error: { code: -32602, message: 'Invalid cursor' } })
      : message.method === 'resources/read' ? (message.params?.uri === 'mem://doc' ? { result: { contents: [{ uri: 'mem://doc', mimeType: 'text/plain', text: 'hello' }] } } : { error: { code: -32002, message: 'Resource not found' } })
      : message.method === 'resources/templates/list' ? { result: { resourceTemplates: [] } }
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(mode: 'good' | 'lax' | 'wrong-code' | 'no-mime'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), mode] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000 })
}

describe('prompts/get beyond the schema', () => {
  it('a server that validates arguments and types its embedded resources passes both', async () => {
    const suite = await run('good')
    expect(find(suite, 'prompts/missing-argument')).toMatchObject({ status: 'pass' })
    expect(find(suite, 'prompts/get')).toMatchObject({ status: 'pass' })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('serving a prompt without its required argument warns under the validation SHOULD', async () => {
    const suite = await run('lax')
    expect(find(suite, 'prompts/missing-argument')).toMatchObject({
      status: 'warn',
      message: 'getting "summarise" without its required argument "topic" was served: the server processed the prompt without validating its arguments',
      spec: { keyword: 'SHOULD', quote: 'Servers SHOULD validate prompt arguments before processing' },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^prompts\/missing-argument: /)])
  }, 60_000)

  it('refusing it with another code than -32602 warns under the error-handling SHOULD', async () => {
    const suite = await run('wrong-code')
    expect(find(suite, 'prompts/missing-argument')).toMatchObject({ status: 'warn', spec: { keyword: 'SHOULD', quote: expect.stringContaining('Missing required arguments: -32602') } })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^prompts\/missing-argument: .*-32603/)])
  }, 60_000)

  it('an embedded resource without a MIME type fails prompts/get under the MUST', async () => {
    const suite = await run('no-mime')
    expect(find(suite, 'prompts/get')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/an embedded resource has no MIME type \("mem:\/\/doc"\)$/),
      spec: { keyword: 'MUST', quote: 'Resources can contain either text or binary (blob) data and MUST include: The appropriate MIME type' },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^prompts\/get: /)])
  }, 60_000)
})
