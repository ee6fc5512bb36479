// The drop-in check, from cordis.yml: the harness' own loader (@deepseek-ai/cordis-plugin-loader
// and -include, as the dsh CLI mounts them) reads ./cordis.yml, the entry file HOSTING.md shows,
// and starts both entries: server-everything over stdio, and a Streamable HTTP server this script
// runs in-process (it records the Authorization header it receives). Prints one JSON line.
// Needs EVERYTHING_TOKEN and MCP_TOKEN in the environment; sets MCP_WEB_URL itself.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import Include from '@deepseek-ai/cordis-plugin-include'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { descendants } from './support/children.mjs'
import { createDshRoot } from './support/services.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))
const out = { node: process.version }
const authorizations = []

/** A stateless Streamable HTTP MCP server with one tool, `search`. */
function webServer() {
  return createServer((req, res) => {
    authorizations.push(req.headers.authorization)
    const mcp = new Server({ name: 'web', version: '1.0.0' }, { capabilities: { tools: {} } })
    mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'search', description: 'Searches the web', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }],
    }))
    mcp.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `results for ${request.params.arguments?.query}` }] }))
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => void transport.close())
    void mcp.connect(transport).then(() => transport.handleRequest(req, res))
  })
}

const http = webServer()
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve))
process.env.MCP_WEB_URL = `http://127.0.0.1:${http.address().port}/mcp`
// Include writes entry changes back to its file: it gets a copy.
const dir = mkdtempSync(join(tmpdir(), 'dsh-cordis-yml-'))
copyFileSync(join(here, 'cordis.yml'), join(dir, 'cordis.yml'))
let calls = 0
const execute = (ctx, name, args) => ctx.tools.execute({ callId: `yml-${++calls}`, name, arguments: args, signal: new AbortController().signal })

const started = performance.now()
try {
  const root = await createDshRoot({ images: false })
  // Plugins named in the file resolve from this project's node_modules, like the dsh CLI's.
  await root.ctx.plugin(Loader, { baseUrl: pathToFileURL(join(process.cwd(), 'package.json')).href })
  const include = root.ctx.plugin(Include, { path: pathToFileURL(join(dir, 'cordis.yml')).href })
  await include
  await root.ctx.loader.await()
  // Entries start asynchronously after the loader settles its imports: wait for both servers' tools
  // (named, not counted: server-everything alone may list as many as the sum once was), within the
  // test's bound, since a loaded machine starts a child slowly.
  const registered = (name) => root.ctx.tools.schemas().some((tool) => tool.name === name)
  for (let i = 0; i < 1_200 && !(registered('mcp__everything__echo') && registered('mcp__web__search')); i++) await new Promise((r) => setTimeout(r, 50))
  out.loadMs = Math.round(performance.now() - started)
  out.tools = root.ctx.tools.schemas().map((tool) => tool.name).filter((name) => name.startsWith('mcp__')).sort()
  out.echo = await execute(root.ctx, 'mcp__everything__echo', { message: 'hello from cordis.yml' })
  out.search = await execute(root.ctx, 'mcp__web__search', { query: 'cordis' })
  const env = await execute(root.ctx, 'mcp__everything__get-env', {})
  out.childEnv = env.isError ? env : JSON.parse(env.value.content[0].text)
  out.authorizations = [...new Set(authorizations)]
  // The stdio server itself; its process-group watchdog (a small sh) is not a server.
  out.childrenWhileRunning = descendants().filter((child) => child.command.includes('server-everything')).length
  await include.dispose()
  out.afterDispose = root.ctx.tools.schemas().map((tool) => tool.name).filter((name) => name.startsWith('mcp__'))
  await root.dispose()
  for (let i = 0; i < 50 && descendants().length; i++) await new Promise((r) => setTimeout(r, 100))
  out.childrenAfterDispose = descendants()
  out.errorLogs = root.logs.filter((line) => line.startsWith('[error]'))
} catch (error) {
  out.error = error?.stack ?? String(error)
  process.exitCode = 1
} finally {
  // Idle keep-alive sockets would hold the process open for seconds.
  http.closeAllConnections()
  http.close()
  rmSync(dir, { recursive: true, force: true })
}
console.log(JSON.stringify(out))
