import { randomUUID } from 'node:crypto'
import { Context, Service } from 'cordis'
// Calls made without a signal share NEVER_ABORTED: following it costs no listener anywhere.
import { BridgeError } from '@mcp-bridge/plugin'
import { errorMessage, NEVER_ABORTED, onAbort, SchemaCompiler, uncheckedPatternsWarning, type CompiledSchema } from '@mcp-bridge/process'
import type {
  ContentBlock,
  ExecuteOptions,
  PostExecuteHook,
  ToolDefinition,
  ToolExecution,
  ToolResult,
  ToolSchema,
  ToolsService,
} from '@mcp-bridge/plugin'


const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/
const NO_OPTIONS: ExecuteOptions = Object.freeze({})

/**
 * The reference `tools` service. Registrations belong to the calling plugin: disposing that
 * plugin removes its tools. Registration is synchronous, so a plugin that swaps a whole
 * generation in one synchronous block is never observed half-applied.
 *
 * Cordis hands every caller a tracing proxy of the service (that is how `this.ctx` is the
 * caller's context), so the methods touch `this` once and do their work on the plain `state`.
 */
export class ToolRegistry extends Service implements ToolsService {
  private readonly state: RegistryState
  // Own functions over the plain state, not methods on `this`: a caller reaches `this` through
  // Cordis' tracing proxies, and every property read there costs a service lookup of its own
  // (measured: ~5 µs per read). These need no caller, so they never read `this`.
  readonly get: (name: string) => ToolDefinition | undefined
  readonly list: () => ToolSchema[]
  readonly execute: (name: string, args: unknown, options?: ExecuteOptions) => Promise<ToolResult>

  constructor(ctx: Context) {
    super(ctx, 'tools')
    const logger = ctx.logger('tools')
    const state = new RegistryState(
      (names) => ctx.root.emit('tools/change', names),
      (message) => logger.warn('%s', message),
    )
    this.state = state
    this.get = (name) => state.definitions.get(name)
    this.list = () => state.list()
    this.execute = (name, args, options) => state.execute(name, args, options ?? NO_OPTIONS)
  }

  register(definition: ToolDefinition): () => void {
    return this.state.registerMany([definition], this.ctx)[0]!
  }

  /**
   * Registers several tools at once, all or none: a name that is invalid or taken takes the
   * batch's earlier names back out before anyone sees them. Returns one dispose function per
   * definition, in order.
   */
  registerMany(definitions: readonly ToolDefinition[]): Array<() => void> {
    return this.state.registerMany(definitions, this.ctx)
  }


  /** Adds a post-execute policy for as long as the calling plugin lives. */
  onPostExecute(hook: PostExecuteHook): () => void {
    const hooks = this.state.postExecute
    const dispose = this.ctx.effect(() => {
      hooks.add(hook)
      return () => hooks.delete(hook)
    }, 'tools:post-execute')
    return () => void dispose()
  }

}

class RegistryState {
  readonly definitions = new Map<string, ToolDefinition>()
  readonly postExecute = new Set<PostExecuteHook>()
  /** The names each calling fiber registered; one Cordis effect per fiber, not per tool. */
  private readonly owners = new Map<object, Set<string>>()
  private changeQueued = false
  /**
   * Argument validators, compiled on a tool's first call by the compiler of the batch that
   * registered it. One compiler per batch, not one for the registry: an Ajv instance keeps a
   * little of every schema it compiled (its code scope), so a registry-wide one would grow with
   * every re-sync (plugin/test/validator-lifetime.test.ts). Kept by name in a plain map, dropped
   * with the name: a WeakMap of 10,000 entries made registering and every major GC slower
   * (ephemeron tables), and a tool's entry goes when the tool goes anyway.
   */
  private readonly compilers = new Map<string, SchemaCompiler>()
  private readonly validators = new WeakMap<ToolDefinition, CompiledSchema>()

  constructor(
    private readonly emitChange: (names: string[]) => void,
    private readonly warn: (message: string) => void,
  ) {}

  registerMany(definitions: readonly ToolDefinition[], caller: Context): Array<() => void> {
    if (!definitions.length) return []
    // All or nothing, checked while adding: a name that is invalid or taken (before or within this
    // batch) takes the batch's earlier names back out before anyone can see them (synchronously,
    // and the change event is queued only on success). No second set of 10,000 names to build.
    // Before anything is added: an inactive caller throws here, and must leave nothing behind.
    const owned = this.ownedBy(caller)
    for (let i = 0; i < definitions.length; i++) {
      const { name } = definitions[i]!
      const problem = !TOOL_NAME.test(name)
        ? new BridgeError(`tool name "${name}" is invalid: use 1-64 characters from A-Z a-z 0-9 _ -`, 'INVALID_ARGS')
        : this.definitions.has(name)
          ? new BridgeError(`tool "${name}" is already registered`, 'NAME_CONFLICT')
          : undefined
      if (problem) {
        for (let k = 0; k < i; k++) this.definitions.delete(definitions[k]!.name)
        throw problem
      }
      this.definitions.set(name, definitions[i]!)
    }
    this.queueChange()
    const compiler = new SchemaCompiler()
    const disposers: Array<() => void> = new Array(definitions.length)
    for (let i = 0; i < definitions.length; i++) {
      const definition = definitions[i]!
      this.compilers.set(definition.name, compiler)
      owned.add(definition.name)
      // Bound, not a closure: the smaller of the two, and 10,000 tools hold 10,000 of them.
      disposers[i] = this.unregister.bind(this, definition, owned)
    }
    return disposers
  }

  private unregister(definition: ToolDefinition, owned: Set<string>): void {
    const { name } = definition
    if (this.definitions.get(name) !== definition) return
    this.definitions.delete(name)
    this.compilers.delete(name)
    owned.delete(name)
    this.queueChange()
  }

  list(): ToolSchema[] {
    return [...this.definitions.values()]
      .map(({ name, description, parameters }) => ({ name, description, parameters }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  /**
   * Always settles with a ToolResult, never a rejection: a host awaits this from its model loop,
   * where a rejection is an uncaught crash. Validation that throws refuses the call
   * (INVALID_ARGS); a definition's execute or output.render that throws is a TOOL_ERROR; a
   * post-execute policy that throws fails the call (a policy may be a redaction: its result is
   * never skipped); a finalizeContent that throws leaves the result as it was (logged).
   */
  async execute(name: string, args: unknown, options: ExecuteOptions): Promise<ToolResult> {
    const definition = this.definitions.get(name)
    if (!definition) return failure('UNKNOWN_TOOL', `unknown tool "${name}"`)
    const input = args ?? {}
    const refused = this.checkArguments(definition, name, input)
    if (refused) return refused
    const signal = options.signal ?? NEVER_ABORTED
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
    if (this.postExecute.size) {
      try {
        for (const hook of this.postExecute) result = hook(exec, result) ?? result
      } catch (error) {
        return failure('TOOL_ERROR', `${name}: a post-execute policy failed: ${errorMessage(error)}`)
      }
    }
    let finalized: ContentBlock[] | undefined
    try {
      finalized = definition.finalizeContent?.(exec, result)
    } catch (error) {
      this.warn(`tool "${name}": finalizeContent threw, its result keeps its plain content: ${errorMessage(error)}`)
    }
    return finalized ? { ...result, content: finalized } : result
  }

  /**
   * The refusal for arguments that do not match the tool's parameters schema, or undefined. The
   * violations come bounded from json-schema.ts (at most 20 lines of 200 characters), so a huge
   * argument cannot make a huge message. Nothing here throws: a validator never does, and a
   * definition whose `parameters` getter throws is refused like a schema that does not compile.
   */
  private checkArguments(definition: ToolDefinition, name: string, input: unknown): ToolResult | undefined {
    let violations: string[]
    try {
      const schema = this.validatorOf(definition)
      // A tool whose arguments cannot be checked is not run unchecked.
      if (!schema.ok) return failure('INVALID_ARGS', `"${name}" cannot be called: its parameters schema does not compile (${schema.reason})`)
      violations = schema.validate(input)
    } catch (error) {
      return failure('INVALID_ARGS', `arguments for "${name}" could not be checked: ${errorMessage(error)}`)
    }
    return violations.length ? failure('INVALID_ARGS', `invalid arguments for "${name}": ${violations.join('; ')}`) : undefined
  }

  private validatorOf(definition: ToolDefinition): CompiledSchema {
    let compiled = this.validators.get(definition)
    if (compiled) return compiled
    const { parameters } = definition
    compiled = (this.compilers.get(definition.name) ?? new SchemaCompiler()).compile(parameters)
    this.validators.set(definition, compiled)
    if (!compiled.ok) this.warn(`tool "${definition.name}": its parameters schema does not compile, so it is refused: ${compiled.reason}`)
    const unchecked = typeof parameters === 'object' && parameters !== null ? uncheckedPatternsWarning(parameters, compiled, `tool "${definition.name}": its parameters schema`) : undefined
    if (unchecked) this.warn(unchecked)
    return compiled
  }

  private ownedBy(caller: Context): Set<string> {
    const fiber = caller.fiber
    const owned = this.owners.get(fiber)
    if (owned) return owned
    const names = new Set<string>()
    // The effect first: it throws for a caller that is no longer active, which must own nothing.
    caller.effect(() => () => {
      this.owners.delete(fiber)
      for (const name of names) {
        this.definitions.delete(name)
        this.compilers.delete(name)
      }
      if (names.size) this.queueChange()
      names.clear()
    }, 'tools:registrations')
    this.owners.set(fiber, names)
    return names
  }

  private queueChange(): void {
    if (this.changeQueued) return
    this.changeQueued = true
    queueMicrotask(() => {
      this.changeQueued = false
      this.emitChange([...this.definitions.keys()])
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
  if (signal === NEVER_ABORTED) return task
  return new Promise<T>((resolve, reject) => {
    // A caller may share one signal across many parallel calls: one listener serves them all.
    const release = onAbort(signal, () => reject(new BridgeError(`aborted: ${errorMessage(signal.reason)}`, 'ABORTED')))
    task.then(resolve, reject).finally(release)
  })
}
