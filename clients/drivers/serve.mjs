// The driver protocol's loop (conformance/FORMAT.md, Driver protocol), shared by the drivers in
// this folder: each driver only says how its client connects, lists, calls and closes.
import { createInterface } from 'node:readline'

// stdout carries the protocol alone: a library that prints to stdout (a logger, a banner) would
// break its lines, so everything else written there goes to stderr, which the kit keeps as evidence.
const stdout = process.stdout.write.bind(process.stdout)
process.stdout.write = process.stderr.write.bind(process.stderr)
export const send = (message) => stdout(`${JSON.stringify(message)}\n`)

/** Schemas as JSON: a client may hold a Zod object or a wrapped JSON Schema instead. */
export function jsonSchema(schema) {
  if (!schema || typeof schema !== 'object') return {}
  if (schema.jsonSchema) return schema.jsonSchema
  return schema
}

/** Every page of a list whose client takes a cursor, as an application follows them; a cursor seen twice ends it. */
export async function allPages(page, key) {
  const items = []
  const seen = new Set()
  let cursor
  do {
    if (seen.has(cursor)) throw new Error(`the server repeated cursor ${JSON.stringify(cursor)}`)
    seen.add(cursor)
    const result = await page(cursor)
    items.push(...(result[key] ?? []))
    cursor = result.nextCursor
  } while (cursor !== undefined)
  return { [key]: items }
}

/** The verbs beyond tools, by the feature a driver declares when its client offers them. */
const BEYOND = { resources: 'resources', templates: 'resources', read: 'resources', prompts: 'prompts', prompt: 'prompts', complete: 'completions' }

/**
 * ops: { connect(server, options) -> features?, list() -> tools, call(name, args, signal) -> result, close() },
 * and optionally the verbs beyond tools the client offers, each answering the MCP result:
 * resources(), templates(), read(uri), prompts(), prompt(name, args), complete(ref, argument);
 * and setRoots(roots), where the client can change its roots while it runs (and announce it).
 * Their features are declared from the verbs given; a verb not given is answered as unsupported.
 * A call's AbortController is kept by request id, so that `abort` reaches it.
 */
export function serve(ops) {
  const calls = new Map()
  const offered = [...new Set(Object.keys(BEYOND).filter((op) => ops[op]).map((op) => BEYOND[op]))]
  const handlers = {
    connect: async ({ server, options }) => ({ features: [...((await ops.connect(server, options ?? {})) ?? []), ...offered] }),
    resources: async () => ({ value: await ops.resources() }),
    templates: async () => ({ value: await ops.templates() }),
    read: async ({ uri }) => ({ value: await ops.read(uri) }),
    prompts: async () => ({ value: await ops.prompts() }),
    prompt: async ({ name, args }) => ({ value: await ops.prompt(name, args) }),
    complete: async ({ ref, argument }) => ({ value: await ops.complete(ref, argument) }),
    setRoots: async ({ roots }) => (await ops.setRoots(roots), {}),
    list: async () => ({ tools: await ops.list() }),
    async call({ id, name, args }) {
      const controller = new AbortController()
      calls.set(id, controller)
      try {
        return { result: await ops.call(name, args, controller.signal) }
      } finally {
        calls.delete(id)
      }
    },
    abort: async ({ call }) => (calls.get(call)?.abort(new Error('the caller aborted the call')), {}),
    close: async () => (await ops.close(), {}),
  }
  createInterface({ input: process.stdin }).on('line', async (line) => {
    const request = JSON.parse(line)
    if (!handlers[request.op] || ((BEYOND[request.op] || request.op === 'setRoots') && !ops[request.op])) return send({ id: request.id, ok: false, unsupported: true, error: `this client offers no "${request.op}"` })
    try {
      send({ id: request.id, ok: true, ...(await handlers[request.op](request)) })
    } catch (error) {
      send({ id: request.id, ok: false, error: String(error?.message ?? error) })
    }
  })
}
