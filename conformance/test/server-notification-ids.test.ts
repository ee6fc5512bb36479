/**
 * "Notifications MUST NOT include an ID": a legacy server that logs on every ping passes
 * jsonrpc/notification-ids, and the same server logging with an id fails exactly that check. A
 * real stdio server process, scripted in this file.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

// Declares logging (and refuses levels it does not know); before answering each ping it logs, with an id when its argument is "with-id".
const SERVER = lineServerSource(
  `const withId = process.argv[2] === 'with-id'
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
let logged = 0
function log() {
  const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'pinged' } }
  if (withId) note.id = 'log-' + ++logged
  process.stdout.write(JSON.stringify(note) + '\\n')
  return { result: {} }
}`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: '2025-11-25', capabilities: { logging: {} }, serverInfo: { name: 'logs-on-ping', version: '1.0.0' } } }
      : message.method === 'ping' ? log()
      : message.method === 'logging/setLevel' ? (LEVELS.includes(message.params.level) ? { result: {} } : { error: { code: -32602, message: 'Invalid log level' } })
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(mode: 'plain' | 'with-id'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), mode] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000 })
}

describe('notifications the server sends carry no id', () => {
  it('a server whose log notifications carry none passes, with nothing else flagged', async () => {
    const suite = await run('plain')
    expect(find(suite, 'jsonrpc/notification-ids')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^\d+ notifications, none with an id$/) })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('the same server with an id on each fails exactly jsonrpc/notification-ids, under the MUST NOT', async () => {
    const suite = await run('with-id')
    expect(find(suite, 'jsonrpc/notification-ids')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^notifications\/message notification with id "log-1" \(and \d+ more\)$/),
      spec: { keyword: 'MUST NOT', quote: 'Notifications MUST NOT include an ID.', url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic#notifications' },
    })
    expect(flagged(suite)).toEqual([expect.stringMatching(/^jsonrpc\/notification-ids: /)])
  }, 60_000)
})
