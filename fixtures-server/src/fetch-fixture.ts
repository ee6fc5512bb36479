import type { FixtureStatus } from './content.ts'
import { FixtureEngine } from './engine.ts'
import { FixtureHttpHandler } from './http-handler.ts'
import { parseBehaviour } from './parse.ts'
import { prepareRuntime, type RuntimeOptions } from './runtime.ts'
import type { Behaviour, BehaviourInput } from './schema.ts'
import type { WireLog } from './wire.ts'

export interface FetchFixture {
  /** A `fetch` that answers as the fixture's endpoint: hand it to a client, or call it from an msw handler. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>
  wire?: WireLog
  /** Settles with the scripted exit code; afterwards every request fails like a refused connection. */
  exited: Promise<number>
  status(): FixtureStatus
  close(): Promise<void>
}

/**
 * The HTTP fixture without a socket: same engine, same faults, a dropped connection becomes a
 * network error (`Response.error()`). For msw handlers and for clients that accept a custom fetch.
 */
export function createFetchFixture(
  behaviour: Behaviour | BehaviourInput,
  options: RuntimeOptions & { stderr?: (line: string) => void; envNames?: () => string[] } = {},
): FetchFixture {
  const parsed = parseBehaviour(behaviour)
  const runtime = prepareRuntime(parsed, options)
  let resolveExited!: (code: number) => void
  const exited = new Promise<number>((resolve) => (resolveExited = resolve))
  let handler: FixtureHttpHandler | undefined
  const engine = new FixtureEngine(parsed, {
    start: runtime.start,
    wire: runtime.wire,
    host: {
      exit: (code) => {
        void close().then(() => resolveExited(code))
      },
      stderr: options.stderr ?? (() => {}),
      envNames: options.envNames ?? (() => Object.keys(process.env)),
    },
  })
  handler = new FixtureHttpHandler(engine, parsed.http, runtime.start)
  const close = async () => {
    const closing = handler
    handler = undefined
    await closing?.close()
    await engine.close()
  }
  engine.begin()
  return {
    fetch: async (input, init) => (handler ? handler.fetch(new Request(input, init)) : Response.error()),
    wire: runtime.wire,
    exited,
    status: () => engine.status(),
    close,
  }
}
