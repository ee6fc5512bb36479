// The features beyond tools inside the harness: the bridge hosted by a harness root with the
// `mcpServers` service (@mcp-bridge/plugin/features), against server-everything over stdio. Asks
// for resources, templates, reads, a subscription's updates, a resource list change, prompts,
// completions, instructions and server logs through the service; calls get-roots-list through
// ToolRuntime.execute before and after a configuration update that changes only `roots`; and
// notes which capability-gated tools server-everything offers in a root with no question service.
// Prints one JSON line of observations; test/dsh/beyond.test.ts judges them. Run from a project
// where this directory's package.json is installed with the plugin's tarball:
// `node --import ./support/trace-modules.mjs beyond-host.mjs`.
import { createRequire } from 'node:module'
import * as bridge from '@mcp-bridge/plugin'
import { McpServers } from '@mcp-bridge/plugin/features'
import { descendants } from './support/children.mjs'
import { createDshRoot } from './support/services.mjs'

const require = createRequire(import.meta.url)
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const DOCUMENT = 'demo://resource/static/document/architecture.md'
const FEATURES = { resources: true, prompts: true, completions: true, instructions: true, logLevel: 'debug' }
const entry = (roots) => ({ serverName: 'everything', transport: 'stdio', command: process.execPath, args: [everything, 'stdio'], features: FEATURES, roots })
// server-everything lists its late tools after `initialized`, this one always: once it is there,
// the absence of a capability-gated one means the capability was not declared.
const LATE_TOOL = bridge.publicToolName('everything', 'simulate-research-query')
const GATED = ['get-roots-list', 'trigger-elicitation-request', 'trigger-url-elicitation', 'trigger-sampling-request']
const out = { node: process.version }
let calls = 0

function execute(ctx, name, args = {}) {
  return ctx.tools.execute({ callId: `call-${++calls}`, name: bridge.publicToolName('everything', name), arguments: args, signal: new AbortController().signal })
}

const textOf = (result) => (result.content ?? []).map((block) => block.text ?? '').join('\n')

async function waitFor(predicate, what, tries = 600) {
  // Bounded by the bridge's own timeouts and server-everything's 5 s update pace; this only stops a silent hang.
  for (let i = 0; i < tries; i++) {
    if (await predicate()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A root whose deployment provides `mcpElicitation`: what reaches the service, and what the server got. */
async function withQuestionService() {
  const asked = await createDshRoot({ images: false })
  const seen = []
  asked.ctx.provide('mcpElicitation', {
    modes: ['form', 'url'],
    async elicit(request) {
      seen.push({ serverName: request.serverName, mode: request.mode, fields: request.fields?.map((field) => field.name), domain: request.domain })
      return request.mode === 'form' ? { action: 'accept', content: { name: 'Ada', check: true } } : { action: 'decline' }
    },
  })
  const fiber = asked.ctx.plugin(bridge, entry(undefined))
  try {
    await fiber
    await waitFor(() => asked.ctx.tools.get(LATE_TOOL) !== undefined, `${LATE_TOOL} to be listed`)
    const form = textOf(await execute(asked.ctx, 'trigger-elicitation-request'))
    const url = textOf(await execute(asked.ctx, 'trigger-url-elicitation', { url: 'https://example.com/verify' }))
    return { seen, form, url }
  } finally {
    await fiber.dispose()
    await asked.dispose()
  }
}

const servers = () => descendants().filter((child) => child.command.includes(everything))

const root = await createDshRoot({ images: false })
const fibers = []
try {
  fibers.push(root.ctx.plugin(McpServers))
  await fibers[0]
  const changes = []
  root.ctx.on('mcp/list-changed', (event) => void changes.push({ kind: event.kind, count: event.items.length }))
  const states = []
  root.ctx.on('mcp/state', (event) => void states.push({ kind: event.state.kind, pid: event.pid }))
  const fiber = root.ctx.plugin(bridge, entry([{ uri: 'file:///srv/project-a', name: 'Project A' }]))
  fibers.push(fiber)
  await fiber
  await waitFor(() => root.ctx.tools.get(LATE_TOOL) !== undefined, `${LATE_TOOL} to be listed`)
  out.offered = Object.fromEntries(GATED.map((name) => [name, root.ctx.tools.get(bridge.publicToolName('everything', name)) !== undefined]))

  const server = root.ctx.mcpServers.get('everything')
  const resources = await server.listResources()
  out.resources = { count: resources.length, hasDocument: resources.some((resource) => resource.uri === DOCUMENT) }
  out.templates = (await server.listResourceTemplates()).map((template) => template.uriTemplate)
  const text = (await server.readResource(DOCUMENT)).contents[0]
  out.readText = { uri: text.uri, mimeType: text.mimeType, chars: text.text?.length ?? 0 }
  const blob = (await server.readResource('demo://resource/dynamic/blob/1')).contents[0]
  out.readBlob = { uri: blob.uri, base64: typeof blob.blob === 'string' && blob.blob.length > 0 }
  out.prompts = (await server.listPrompts()).map((prompt) => prompt.name)
  out.prompt = (await server.getPrompt('args-prompt', { city: 'Paris' })).messages.map((message) => message.content?.text ?? '')
  out.promptRefused = await server.getPrompt('args-prompt', { town: 'Paris' }).then(
    () => 'sent',
    (error) => `${error.code}: ${error.message}`,
  )
  out.completePrompt = await server.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'E' })
  out.completeTemplate = await server.complete({ type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, { name: 'resourceId', value: '1' })
  out.instructions = typeof server.instructions() === 'string'

  // server-everything sends updates for subscribed URIs every 5 s once toggled on.
  const updates = []
  const end = await server.subscribe(DOCUMENT, (update) => void updates.push(update))
  await execute(root.ctx, 'toggle-subscriber-updates')
  await waitFor(() => updates.length > 0, 'a resource update', 800)
  out.update = updates[0]
  await end()
  await waitFor(() => root.logs.some((line) => /server log \(info\): Received Unsubscribe Resource request/.test(line)), 'the server to log the unsubscribe')
  out.serverLogs = root.logs.filter((line) => line.includes('server log (')).length

  // A session resource added by a tool: resources/list_changed, re-listed whole and told.
  await execute(root.ctx, 'gzip-file-as-resource', { name: 'note.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resourceLink' })
  await waitFor(() => changes.some((change) => change.kind === 'resources' && change.count === resources.length + 1), 'the resource list change')
  out.listChanged = changes.find((change) => change.kind === 'resources')

  // Roots from configuration, and an update of the roots alone through the harness' Cordis.
  out.rootsBefore = textOf(await execute(root.ctx, 'get-roots-list'))
  const statesBefore = states.length
  await fiber.update(entry([{ uri: 'file:///srv/project-b' }]))
  let rootsAfter = ''
  await waitFor(async () => (rootsAfter = textOf(await execute(root.ctx, 'get-roots-list'))).includes('project-b'), 'the new roots to reach the server', 200)
  out.rootsAfter = rootsAfter
  out.statesAfterRootsUpdate = states.slice(statesBefore).map((state) => state.kind)

  // The harness has no question service; a deployment that has one provides `mcpElicitation`
  // itself. Here a scripted one, in a second root, answers server-everything's form and URL.
  out.provided = await withQuestionService()
} catch (error) {
  out.error = error?.stack ?? String(error)
  process.exitCode = 1
} finally {
  for (const fiber of fibers.reverse()) await fiber.dispose()
  await root.dispose()
  for (let i = 0; i < 50 && servers().length; i++) await new Promise((resolve) => setTimeout(resolve, 100))
  out.childrenAfterDispose = servers()
  out.errorLogs = root.logs.filter((line) => line.startsWith('[error]'))
  // Which Cordis copies ran (with --import ./support/trace-modules.mjs): the features entry's service class.
  out.cordisCopies = [...(globalThis.__resolvedModules ?? [])].filter((url) => /\/node_modules\/(@deepseek-ai\/)?cordis\/lib\//.test(url)).sort()
}
console.log(JSON.stringify(out))
