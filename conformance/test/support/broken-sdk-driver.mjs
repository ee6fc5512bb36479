#!/usr/bin/env node
// conformance/drivers/sdk-client.mjs with one bug switched on (argv[2]): each bug is one that real
// MCP clients have shipped, and each must turn a universal expectation of the kit into a failure.
// Without an argument it behaves like the example driver.
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js'
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema, ListRootsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'

// One bug, or several joined by '+' (a client with more than one fault at once).
const bugs = new Set((process.argv[2] ?? 'none').split('+'))
const has = (name) => bugs.has(name)
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
const calls = new Map()
let client
let stdioTransport
let options = {}
// The elicitationIds of the URL-mode asks answered so far.
const askedIds = new Set()

async function listAll() {
  const tools = []
  const seen = new Set()
  let cursor
  let pages = 0
  let previous
  do {
    // unbounded-pagination: no repeated-cursor guard (capped at 50 pages only so the test ends).
    // previous-cursor-only: a guard that compares with the last cursor alone, blind to a cycle (capped the same way).
    const repeated = has('unbounded-pagination') ? ++pages > 50 : has('previous-cursor-only') ? ++pages > 50 || (cursor !== undefined && cursor === previous) : seen.has(cursor)
    if (repeated) throw new Error(`cursor ${JSON.stringify(cursor)} repeated`)
    seen.add(cursor)
    previous = cursor
    const page = await client.listTools(cursor === undefined ? {} : { cursor })
    tools.push(...page.tools)
    cursor = has('first-page-only') ? undefined : page.nextCursor
  } while (cursor !== undefined)
  // public-name-on-wire: offers prefixed names and later sends them as they are.
  return tools.map(({ name, description, inputSchema }) => (has('public-name-on-wire') ? { name: `fx_${name}`, rawName: name, description, inputSchema } : { name, description, inputSchema }))
}

// Roots and elicitation as the scenario configures them (options.asks), each capability declared
// with its handler, unless a bug says otherwise.
function answerAsks(asks) {
  client.registerCapabilities({
    ...(asks.elicitation && !has('answer-undeclared') ? { elicitation: Object.fromEntries((asks.elicitation.modes ?? ['form']).map((mode) => [mode, {}])) } : {}),
    // roots-without-list-changed: declares roots but not listChanged, so it promises no announcement.
    ...(asks.roots ? { roots: has('roots-without-list-changed') ? {} : { listChanged: true } } : {}),
  })
  // answer-undeclared: answers elicitation with content though it never declared the capability
  // (past the SDK's own guard, which would refuse the ask for it).
  if (has('answer-undeclared')) {
    Object.assign(client, { assertRequestHandlerCapability: () => {} })
    Protocol.prototype.setRequestHandler.call(client, ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }))
  }
  // invalid-form-content: accepts with a value the requested schema does not allow.
  else if (asks.elicitation) client.setRequestHandler(ElicitRequestSchema, (request) => (askedIds.add(request.params.elicitationId), has('invalid-form-content') ? { action: 'accept', content: { name: 42 } } : asks.elicitation.answer))
  // answer-completion: answers notifications/elicitation/complete as if it were a request (an
  // error with a null id: "unknown elicitation"), where a client MUST ignore an unknown id.
  if (has('answer-completion')) client.setNotificationHandler(ElicitationCompleteNotificationSchema, () => client.transport?.send({ jsonrpc: '2.0', id: null, error: { code: -32602, message: 'unknown elicitation' } }))
  // close-on-unknown-completion: takes a completion for an id it never saw as a broken server and closes the session.
  if (has('close-on-unknown-completion')) client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => (askedIds.has(notification.params.elicitationId) ? undefined : void client.close()))
  // non-file-root: lists a root that is not a file:// URI.
  if (asks.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: has('non-file-root') ? [{ uri: 'https://example.com/project' }] : asks.roots }))
}

const ops = {
  async connect({ server, options: given }) {
    options = given
    const relist = () => listAll().then((tools) => send({ event: 'tools', tools }), () => {})
    // relist-per-notification: no coalescing, one tools/list per list_changed.
    client = new Client({ name: 'broken-sdk-driver', version: '1.0.0' }, has('relist-per-notification') ? {} : { listChanged: { tools: { autoRefresh: false, onChanged: relist } } })
    if (has('relist-per-notification')) client.setNotificationHandler(ToolListChangedNotificationSchema, relist)
    answerAsks(options.asks ?? {})
    const transport = server.transport === 'stdio'
      // pass-host-env: the child inherits the whole host environment, secrets included.
      ? new StdioClientTransport({ command: server.command, args: server.args, env: has('pass-host-env') ? { ...process.env, ...server.env } : { ...getDefaultEnvironment(), ...server.env } })
      : new StreamableHTTPClientTransport(new URL(server.url))
    if (has('no-initialized')) {
      // no-initialized: the initialized notification is never sent.
      const sendRaw = transport.send.bind(transport)
      transport.send = (message, o) => (message.method === 'notifications/initialized' ? Promise.resolve() : sendRaw(message, o))
    }
    // no-ping-answer: takes the SDK's ping handler away, so a ping gets "Method not found".
    if (has('no-ping-answer')) client.removeRequestHandler('ping')
    // no-protocol-header: never sets MCP-Protocol-Version on its HTTP requests.
    if (has('no-protocol-header')) transport.setProtocolVersion = () => {}
    // accept-any-version: goes on with a protocol version it does not know.
    if (has('accept-any-version')) SUPPORTED_PROTOCOL_VERSIONS.push('1999-01-01')
    if (server.transport === 'stdio') stdioTransport = transport
    await client.connect(transport, { timeout: options.connectTimeoutMs })
    // no-session-header: forgets the Mcp-Session-Id the server assigned.
    if (has('no-session-header')) transport._sessionId = undefined
    return { features: ['listChanged', 'roots', 'elicitation'] }
  },
  // The roots listed change (the handler reads asks.roots at each ask) and the server is told.
  // unannounced-roots-change: declared roots.listChanged, changes its roots, never tells the server.
  // roots-without-list-changed: does not tell either, bound by nothing it declared.
  async setRoots({ roots }) {
    options.asks.roots = roots
    if (!has('unannounced-roots-change') && !has('roots-without-list-changed')) await client.sendRootsListChanged()
    return {}
  },
  // list-nothing: offers no tools at all (a connect that failed quietly).
  list: async () => ({ tools: has('list-nothing') ? [] : await listAll() }),
  async call({ id, name, args }) {
    const controller = new AbortController()
    let giveUp
    const local = new Promise((_, reject) => (giveUp = reject))
    calls.set(id, has('no-cancel-on-abort') ? { abort: (reason) => giveUp(new Error(String(reason))) } : controller)
    try {
      // timeout-without-cancel: the caller stops waiting, the server is never told.
      // late-timeout: the configured timeout, applied twenty times over (a unit slip, a default in its place).
      const timeout = has('timeout-without-cancel') ? undefined : has('late-timeout') && options.callTimeoutMs ? options.callTimeoutMs * 20 : options.callTimeoutMs
      const request = client.callTool({ name: has('public-name-on-wire') ? name : name.replace(/^fx_/, ''), arguments: args }, undefined, { signal: has('no-cancel-on-abort') ? undefined : controller.signal, timeout: timeout ?? 60_000 })
      const timer = has('timeout-without-cancel') && options.callTimeoutMs ? setTimeout(() => giveUp(new Error('timed out')), options.callTimeoutMs) : undefined
      const result = await Promise.race([request, local]).finally(() => clearTimeout(timer))
      // is-error-as-success: the isError flag is dropped on the way to the caller.
      return { result: { isError: has('is-error-as-success') ? false : result.isError === true, content: result.content, structuredContent: result.structuredContent } }
    } finally {
      calls.delete(id)
    }
  },
  abort: async ({ call }) => (calls.get(call)?.abort('the caller aborted the call'), {}),
  // no-close: says it closed, leaves the server running.
  // sigkill-at-close: kills the server outright, without closing its stdin first.
  // slow-close: takes 5 s to close (a close that waits on something it should not).
  close: async () => {
    if (has('slow-close')) await new Promise((resolve) => setTimeout(resolve, 5000))
    if (has('sigkill-at-close')) stdioTransport?._process?.kill('SIGKILL')
    if (!has('no-close')) await client?.close()
    return {}
  },
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    send({ id: request.id, ok: false, error: String(error?.message ?? error) })
  }
})
