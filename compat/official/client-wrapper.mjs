// The command the official suite's client scenarios run (`conformance client --command "node
// client-wrapper.mjs"`): it appends the URL of the server it started, and names the scenario in
// MCP_CONFORMANCE_SCENARIO. This runs the mcp-bridge plugin the way `mcp-bridge tools` / `call` do
// (a Cordis host from a cordis.yml of one Streamable HTTP entry), lists the tools it bridged and
// calls each one with arguments made from its schema, then stops the host and exits: what a model
// driving the plugin would do with an unknown server. Exit 0 when the host loaded and every call
// returned, 1 otherwise (the suite judges what it saw on the wire, not this code).
/* global fetch, AbortSignal -- web-standard globals of Node 20, which the shared .mjs globals list does not name */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simulatedBrowser } from '@mcp-bridge/conformance/sign-in'
import { createFileHost } from '@mcp-bridge/host/loader'

const url = process.argv.at(-1)
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)'
const log = (line) => process.stderr.write(`client-wrapper [${scenario}]: ${line}\n`)

if (!url || !/^https?:\/\//.test(url)) {
  log(`the last argument must be the server URL, not ${JSON.stringify(url ?? '')}`)
  process.exit(2)
}

/** A value for each required property, by its type: enough for a tool to run. */
function argumentsFor(schema) {
  const args = {}
  const properties = schema?.properties ?? {}
  for (const name of schema?.required ?? []) {
    const property = properties[name] ?? {}
    const type = Array.isArray(property.type) ? property.type[0] : property.type
    args[name] =
      property.default ?? property.enum?.[0] ?? (type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : type === 'array' ? [] : type === 'object' ? argumentsFor(property) : 'conformance')
  }
  return args
}

/**
 * The scenario's credentials (MCP_CONFORMANCE_CONTEXT) as the plugin's auth config, the secret
 * set in this process's environment, where the plugin reads it: a client secret for
 * client_credentials, a PEM key for private_key_jwt. Without credentials, a sign-in
 * (authorization_code), which the plugin starts only when the server asks for authorization.
 */
async function authFrom(context) {
  if (!context?.client_id) return { type: 'authorization_code' }
  // The plugin presents credentials only to the issuer configured with them; an operator reads it
  // from the server's protected resource metadata, as this does when the context names none.
  const issuer = context.issuer ?? (await advertisedIssuer())
  if (context.private_key_pem) {
    process.env.OFFICIAL_PRIVATE_KEY = context.private_key_pem
    return { type: 'private_key_jwt', clientId: context.client_id, privateKeyEnv: 'OFFICIAL_PRIVATE_KEY', issuer, ...(context.signing_algorithm ? { algorithm: context.signing_algorithm } : {}) }
  }
  if (context.client_secret) {
    process.env.OFFICIAL_CLIENT_SECRET = context.client_secret
    return { type: 'client_credentials', clientId: context.client_id, clientSecretEnv: 'OFFICIAL_CLIENT_SECRET', issuer }
  }
  return undefined
}

/** The first authorization server of the server's protected resource metadata (RFC 9728), if any. */
async function advertisedIssuer() {
  const { origin, pathname } = new URL(url)
  for (const candidate of [`${origin}/.well-known/oauth-protected-resource${pathname}`, `${origin}/.well-known/oauth-protected-resource`]) {
    try {
      const response = await fetch(candidate, { signal: AbortSignal.timeout(5_000) })
      const issuer = response.ok ? (await response.json())?.authorization_servers?.[0] : undefined
      if (typeof issuer === 'string') return issuer
    } catch {
      // try the next one
    }
  }
  return undefined
}

function parseContext(text) {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    log('MCP_CONFORMANCE_CONTEXT is not JSON; running without it')
    return undefined
  }
}

/**
 * The calls a scenario expects: json-schema-2020-12-preservation wants the focal tool's schema, as
 * the client received it, echoed through json_schema_echo; a scenario whose context lists
 * `toolCalls` (http-custom-headers: the values whose encoding it checks) gets those, each on the
 * bridged tool of that name, less members whose value is null: the bridge checks arguments against
 * the tool's schema before sending, and a null is no boolean, so such a member is left out, the
 * "not provided" the scenario treats alike; every other one gets each tool called once with
 * arguments made from its schema.
 */
function plannedCalls(tools, context) {
  const echo = tools.find((t) => t.name.endsWith('__json_schema_echo'))
  const focal = tools.find((t) => t.name.endsWith('__json_schema_2020_12_tool'))
  if (echo && focal) return [{ name: echo.name, args: { schema: focal.parameters } }]
  if (Array.isArray(context?.toolCalls)) return context.toolCalls.map((call) => ({ name: tools.find((t) => t.name.endsWith(`__${call.name}`))?.name ?? call.name, args: Object.fromEntries(Object.entries(call.arguments ?? {}).filter(([, value]) => value !== null)) }))
  return tools.map((tool) => ({ name: tool.name, args: argumentsFor(tool.parameters) }))
}

/** The person at the browser: the kit's own simulated one, bounded at 10 s. */
const browse = simulatedBrowser(10_000)

/**
 * The person answering the scenario's questions (the host's mcpElicitation service): they accept
 * every form as offered, leaving each field at its default, which the plugin fills in
 * (elicitation-sep1034-client-defaults checks that it does; sep-2322-client-request-state only
 * needs an answer to retry with).
 */
const elicitation = {
  modes: ['form'],
  elicit: async ({ mode, message }) => {
    log(`elicitation (${mode}): ${message.slice(0, 200)} -> accept`)
    return { action: 'accept', content: {} }
  },
}

const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT)
const auth = await authFrom(context)
const dir = mkdtempSync(join(tmpdir(), 'official-client-'))
const file = join(dir, 'cordis.yml')
// JSON is YAML: the URL goes in quoted, whatever it holds. A short reconnect budget, so a scenario
// whose server refuses us ends in seconds rather than after the default backoff.
const entry = {
  id: 'official',
  name: '@mcp-bridge/plugin',
  config: { serverName: 'conformance', transport: 'streamable-http', url, ...(auth ? { auth } : {}), reconnect: { maxAttempts: 2, initialDelayMs: 200, maxDelayMs: 1000 } },
}
writeFileSync(file, JSON.stringify([entry], null, 2) + '\n')

let code = 0
let host
try {
  host = await createFileHost({ file, env: process.env, logging: { level: 'warn', write: (line) => log(line) }, signals: false, signIn: browse, elicitation })
  if (!host.loaded.ok) code = 1
  const tools = host.tools.list()
  log(`bridged ${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}`)
  for (const { name, args } of plannedCalls(tools, context)) {
    const result = await host.tools.execute(name, args, {})
    log(`${name} ${JSON.stringify(args).slice(0, 200)} -> ${result.isError ? `error ${result.error?.code}` : 'ok'}`)
    if (result.isError) code = 1
  }
} catch (error) {
  log(error instanceof Error ? error.message : String(error))
  code = 1
} finally {
  await host?.dispose()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(code)
