#!/usr/bin/env node
// A driver for the raw @modelcontextprotocol/sdk Client: the driver protocol of
// conformance/FORMAT.md, in one file. JSON lines in on stdin, answers out on stdout.
/* global fetch, AbortSignal */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { createInterface } from 'node:readline'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'

const FEATURES = ['listChanged', 'resources', 'prompts', 'completions', 'auth', 'roots', 'elicitation', 'sampling']
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
const calls = new Map() // call request id -> its AbortController
let client
let options = {}
const updated = [] // the URIs of notifications/resources/updated the SDK handed us, in order

// Pages are followed to the end; a cursor seen twice ends discovery instead of looping forever.
// A server that did not declare tools is not asked for them.
async function listAll() {
  if (!client.getServerCapabilities()?.tools) return []
  const tools = []
  const seen = new Set()
  let cursor
  do {
    if (seen.has(cursor)) throw new Error(`the server repeated cursor ${JSON.stringify(cursor)}`)
    seen.add(cursor)
    const page = await client.listTools(cursor === undefined ? {} : { cursor })
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))
}

// Beyond tools: whole lists (every page followed, as for tools), reads, prompts and completions,
// each asked only of a server that declared the capability it needs.
function needs(capability) {
  if (!client.getServerCapabilities()?.[capability]) throw new Error(`the server declared no "${capability}" capability`)
}

async function allPages(capability, list, key) {
  needs(capability)
  const items = []
  const seen = new Set()
  let cursor
  do {
    if (seen.has(cursor)) throw new Error(`the server repeated cursor ${JSON.stringify(cursor)}`)
    seen.add(cursor)
    const page = await list(cursor === undefined ? {} : { cursor })
    items.push(...page[key])
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return { value: { [key]: items } }
}

// OAuth as an application would set it up: the SDK's providers for the headless grants, a given
// token as a header, and for the authorization code an OAuthClientProvider whose "browser" fetches
// the authorization URL and follows the redirects to our own loopback redirect URI.
let signIn // the authorization-code provider's pending sign-in: a promise of the code
async function loopback() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  let settle
  const code = new Promise((resolve, reject) => (settle = { resolve, reject }))
  server.on('request', (request, response) => {
    const params = new URL(request.url, 'http://127.0.0.1').searchParams
    response.setHeader('connection', 'close')
    response.end('signed in\n')
    server.close()
    if (params.get('state') !== expectedState) settle.reject(new Error('the authorization response carried another state'))
    else if (params.get('code')) settle.resolve(params.get('code'))
    else settle.reject(new Error(`the authorization server refused: ${params.get('error')}`))
  })
  return { url: `http://127.0.0.1:${server.address().port}/callback`, code, close: () => server.close() }
}
let expectedState
function codeProvider(auth, redirect) {
  let client = auth.clientId ? { client_id: auth.clientId, ...(auth.clientSecret ? { client_secret: auth.clientSecret } : {}) } : undefined
  let tokens
  let verifier
  return {
    redirectUrl: redirect.url,
    clientMetadata: { client_name: 'sdk-client-driver', redirect_uris: [redirect.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...(auth.scope ? { scope: auth.scope } : {}) },
    state: () => (expectedState = randomBytes(16).toString('hex')),
    clientInformation: () => client,
    saveClientInformation: (info) => (client = info),
    tokens: () => tokens,
    saveTokens: (saved) => (tokens = saved),
    saveCodeVerifier: (saved) => (verifier = saved),
    codeVerifier: () => verifier,
    // The browser: no person needed, the authorization server approves and redirects to us.
    redirectToAuthorization: (url) => {
      signIn = fetch(url, { signal: AbortSignal.timeout(options.connectTimeoutMs ?? 10000) }).then(() => redirect.code)
      signIn.catch(() => {})
    },
  }
}
async function authProvider(auth) {
  if (!auth || auth.grant === 'bearer') return {}
  const { clientId, clientSecret, issuer: expectedIssuer, scope } = auth
  if (auth.grant === 'client_credentials') return { authProvider: new ClientCredentialsProvider({ clientId, clientSecret, expectedIssuer, scope }) }
  if (auth.grant === 'private_key_jwt') return { authProvider: new PrivateKeyJwtProvider({ clientId, privateKey: auth.privateKey, algorithm: auth.algorithm, expectedIssuer, scope }) }
  const redirect = await loopback()
  return { authProvider: codeProvider(auth, redirect), redirect }
}
async function connectHttp(url, auth) {
  const { authProvider: provider, redirect } = await authProvider(auth)
  const headers = auth?.grant === 'bearer' ? { Authorization: `Bearer ${auth.token}` } : undefined
  const open = () => new StreamableHTTPClientTransport(url, { authProvider: provider, ...(headers ? { requestInit: { headers } } : {}) })
  const transport = open()
  try {
    await client.connect(transport, { timeout: options.connectTimeoutMs })
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !signIn) throw error
    // Signed in (once): the code is exchanged, then the client connects again with the token.
    const code = await signIn.finally(() => (signIn = undefined))
    await transport.finishAuth(code)
    await client.connect(open(), { timeout: options.connectTimeoutMs })
  } finally {
    redirect?.close()
  }
}

// What the server may ask (options.asks, FORMAT.md): each capability declared only when the
// scenario configures an answer, and its handler registered before connecting.
function askCapabilities(asks = {}) {
  return {
    ...(asks.roots ? { roots: { listChanged: true } } : {}),
    ...(asks.elicitation ? { elicitation: Object.fromEntries((asks.elicitation.modes ?? ['form']).map((mode) => [mode, {}])) } : {}),
    ...(asks.sampling ? { sampling: {} } : {}),
  }
}
function answerAsks(asks = {}) {
  // Read at each ask: `setRoots` changes them while the client runs.
  if (asks.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: asks.roots }))
  if (asks.elicitation) client.setRequestHandler(ElicitRequestSchema, () => asks.elicitation.answer)
  // The SDK leaves it to the handler: without sampling.tools declared, a tool-enabled request is an error.
  if (asks.sampling) client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    if (request.params.tools !== undefined) throw new McpError(ErrorCode.InvalidParams, 'tool use in sampling is not supported (no sampling.tools capability)')
    return asks.sampling.answer
  })
}

const ops = {
  resources: () => allPages('resources', (params) => client.listResources(params), 'resources'),
  templates: () => allPages('resources', (params) => client.listResourceTemplates(params), 'resourceTemplates'),
  prompts: () => allPages('prompts', (params) => client.listPrompts(params), 'prompts'),
  read: async ({ uri }) => (needs('resources'), { value: await client.readResource({ uri }, { timeout: options.callTimeoutMs }) }),
  prompt: async ({ name, args }) => (needs('prompts'), { value: await client.getPrompt({ name, arguments: args }) }),
  complete: async ({ ref, argument }) => (needs('completions'), { value: await client.complete({ ref, argument }) }),
  // Subscriptions as the SDK offers them: it sends the request and hands every update to our handler.
  subscribe: async ({ uri }) => (needs('resources'), await client.subscribeResource({ uri }), {}),
  unsubscribe: async ({ uri }) => (needs('resources'), await client.unsubscribeResource({ uri }), {}),
  updates: async () => ({ value: { updated: [...updated] } }),
  // The roots the handler answers change, and the server is told, as roots.listChanged promises.
  async setRoots({ roots }) {
    if (!options.asks?.roots) throw new Error('no roots configured: the client declared no roots capability')
    options.asks.roots = roots
    await client.sendRootsListChanged()
    return {}
  },
  async connect({ server, options: given }) {
    options = given
    client = new Client({ name: 'sdk-client-driver', version: '1.0.0' }, {
      capabilities: askCapabilities(options.asks),
      // The SDK debounces list_changed (300 ms by default); the tools are re-listed once per burst.
      listChanged: { tools: { autoRefresh: false, onChanged: () => listAll().then((tools) => send({ event: 'tools', tools }), () => {}) } },
    })
    answerAsks(options.asks)
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri))
    if (server.transport === 'http') await connectHttp(new URL(server.url), options.auth)
    else await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env: server.env }), { timeout: options.connectTimeoutMs })
    return { features: FEATURES }
  },
  list: async () => ({ tools: await listAll() }),
  async call({ id, name, args }) {
    const controller = new AbortController()
    calls.set(id, controller)
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, { signal: controller.signal, timeout: options.callTimeoutMs })
      return { result: { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent } }
    } finally {
      calls.delete(id)
    }
  },
  abort: async ({ call }) => (calls.get(call)?.abort('the caller aborted the call'), {}),
  close: async () => (await client?.close(), {}),
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  if (!ops[request.op]) return send({ id: request.id, ok: false, unsupported: true, error: `this driver does not support "${request.op}"` })
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    // A refused connect still says what the client does: refusing a bad credential is an auth scenario's point.
    send({ id: request.id, ok: false, error: String(error?.message ?? error), ...(request.op === 'connect' ? { features: FEATURES } : {}) })
  }
})
