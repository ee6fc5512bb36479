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

/**
 * ops: { connect(server, options) -> features?, list() -> tools, call(name, args, signal) -> result, close() }.
 * A call's AbortController is kept by request id, so that `abort` reaches it.
 */
export function serve(ops) {
  const calls = new Map()
  const handlers = {
    connect: async ({ server, options }) => ({ features: (await ops.connect(server, options ?? {})) ?? [] }),
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
    try {
      send({ id: request.id, ok: true, ...(await handlers[request.op](request)) })
    } catch (error) {
      send({ id: request.id, ok: false, error: String(error?.message ?? error) })
    }
  })
}
