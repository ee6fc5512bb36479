import { randomUUID } from 'node:crypto'
import { Context, Service } from 'cordis'
import { BridgeError, errorMessage } from '../errors.ts'
import { compileJsonSchema } from '../json-schema.ts'
import type {
  ContentBlock,
  ExecuteOptions,
  PostExecuteHook,
  ToolDefinition,
  ToolExecution,
  ToolResult,
  ToolSchema,
  ToolsService,
} from './types.ts'

declare module 'cordis' {
  interface Context {
    tools: ToolRegistry
  }
  interface Events {
    /** Fired once per batch of registry changes, after the batch: never mid-swap. */
    'tools/change'(names: string[]): void
  }
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The reference `tools` service. Each registration is an effect of the calling plugin, so
 * disposing that plugin removes its tools. Registration is synchronous: a plugin that swaps a
 * whole generation in one synchronous block is never observed half-applied.
 */
export class ToolRegistry extends Service implements ToolsService {
  private readonly definitions = new Map<string, ToolDefinition>()
  private readonly postExecute = new Set<PostExecuteHook>()
  private changeQueued = false

  constructor(ctx: Context) {
    super(ctx, 'tools')
  }

  register(definition: ToolDefinition): () => void {
    const { name } = definition
    if (!TOOL_NAME.test(name)) {
      throw new BridgeError(`tool name "${name}" is invalid: use 1-64 characters from A-Z a-z 0-9 _ -`, 'INVALID_ARGS')
    }
    if (this.definitions.has(name)) {
      throw new BridgeError(`tool "${name}" is already registered`, 'NAME_CONFLICT')
    }
    const dispose = this.ctx.effect(() => {
      this.definitions.set(name, definition)
      this.queueChange()
      return () => {
        if (this.definitions.get(name) !== definition) return
        this.definitions.delete(name)
        this.queueChange()
      }
    }, `tools:${name}`)
    return () => void dispose()
  }

  get(name: string): ToolDefinition | undefined {
    return this.definitions.get(name)
  }

  list(): ToolSchema[] {
    return [...this.definitions.values()]
      .map(({ name, description, parameters }) => ({ name, description, parameters }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  /** Adds a post-execute policy for as long as the calling plugin lives. */
  onPostExecute(hook: PostExecuteHook): () => void {
    const dispose = this.ctx.effect(() => {
      this.postExecute.add(hook)
      return () => this.postExecute.delete(hook)
    }, 'tools:post-execute')
    return () => void dispose()
  }

  async execute(name: string, args: unknown, options: ExecuteOptions = {}): Promise<ToolResult> {
    const definition = this.definitions.get(name)
    if (!definition) return failure('UNKNOWN_TOOL', `unknown tool "${name}"`)
    const input = args ?? {}
    const schema = compileJsonSchema(definition.parameters)
    const violations = schema.ok ? schema.validate(input) : []
    if (violations.length) {
      return failure('INVALID_ARGS', `invalid arguments for "${name}": ${violations.join('; ')}`)
    }
    const signal = options.signal ?? new AbortController().signal
    if (signal.aborted) return failure('ABORTED', `call to "${name}" was aborted before it started`)
    const exec: ToolExecution = { callId: randomUUID(), name, arguments: input, signal, route: options.route }

    let result: ToolResult
    try {
      const value = await untilAborted(definition.execute(input, exec), signal)
      result = { isError: false, value, content: definition.output?.render(value) ?? renderJson(value) }
    } catch (error) {
      const code = signal.aborted ? 'ABORTED' : BridgeError.is(error) ? error.code : 'TOOL_ERROR'
      result = failure(code, `${name} failed: ${errorMessage(error)}`)
    }
    for (const hook of this.postExecute) result = hook(exec, result) ?? result
    const finalized = definition.finalizeContent?.(exec, result)
    return finalized ? { ...result, content: finalized } : result
  }

  private queueChange(): void {
    if (this.changeQueued) return
    this.changeQueued = true
    queueMicrotask(() => {
      this.changeQueued = false
      this.ctx.root.emit('tools/change', [...this.definitions.keys()])
    })
  }
}

function failure(code: string, message: string): ToolResult {
  return { isError: true, error: { message, code }, content: [{ type: 'text', text: `Error: ${message}` }] }
}

function renderJson(value: unknown): ContentBlock[] {
  return [{ type: 'text', text: typeof value === 'string' ? value : (JSON.stringify(value) ?? '') }]
}

/** The caller is released when its signal aborts, even if the tool ignores the signal. */
function untilAborted<T>(task: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new BridgeError(`aborted: ${errorMessage(signal.reason)}`, 'ABORTED'))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    task.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
