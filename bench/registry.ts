/**
 * The reference registry alone, without any server: `ctx.tools.execute(name, args)` on a tool
 * whose `execute` resolves at once, against calling that definition directly. What is left is
 * the registry's own cost per call (Cordis' service lookup and proxies, argument validation, the
 * execution record, rendering and finalizing the result), the part of the per-call overhead that
 * does not depend on the transport. Variants take turns in rotating batches, like `overhead`.
 */
import type { ToolDefinition, ToolExecution } from '@mcp-bridge/plugin'
import { startHost } from './host.ts'
import { row, type Bench } from './model.ts'
import { formatMs, round, summarize } from './stats.ts'

const CALLS = 20_000
const WARMUP = 2_000
const BATCH = 500
/** Whole benchmark; a slower machine reports fewer calls rather than hanging. */
const TIME_LIMIT_MS = 20_000

type Variant = 'ctx.tools.execute' | 'handle.execute' | 'definition.execute'
const VARIANTS: Variant[] = ['ctx.tools.execute', 'handle.execute', 'definition.execute']

/** The same arguments and result shape the bridge's echo tool sees. */
const SCHEMA = { type: 'object', properties: { text: { type: 'string' }, n: { type: 'number' } }, required: ['text'] }
const RESULT = { content: [{ type: 'text', text: '{"text":"hello"}' }] }

export const registry: Bench = {
  id: 'registry',
  title: 'Reference registry alone (ctx.tools.execute vs the definition called directly)',
  targets: [],
  async run(log) {
    const host = await startHost()
    const samples: Record<Variant, number[]> = { 'ctx.tools.execute': [], 'handle.execute': [], 'definition.execute': [] }
    let stoppedEarly = false
    try {
      const definition: ToolDefinition = {
        name: 'micro',
        description: 'resolves at once',
        parameters: SCHEMA,
        execute: async () => RESULT,
      }
      const fiber = host.ctx.plugin({ name: 'bench-micro', inject: ['tools'], apply: (ctx) => void ctx.tools.register(definition) })
      await fiber
      const { ctx } = host
      // What a host that keeps the handle pays (no service lookup per call).
      const handle = ctx.tools
      const idle = new AbortController().signal
      let n = 0
      const calls: Record<Variant, () => Promise<unknown>> = {
        'ctx.tools.execute': () => ctx.tools.execute('micro', { text: 'hello', n: n++ }),
        'handle.execute': () => handle.execute('micro', { text: 'hello', n: n++ }),
        'definition.execute': () => {
          const args = { text: 'hello', n: n++ }
          const exec: ToolExecution = { callId: String(n), name: 'micro', arguments: args, signal: idle }
          return definition.execute(args, exec)
        },
      }
      log(`registry: ${WARMUP} warm-up + ${CALLS} timed calls per variant (${VARIANTS.join(', ')})`)
      const started = performance.now()
      for (let i = 0; i < WARMUP; i++) for (const variant of VARIANTS) await calls[variant]()
      for (let b = 0; b < CALLS / BATCH; b++) {
        if (performance.now() - started > TIME_LIMIT_MS) {
          stoppedEarly = true
          break
        }
        for (let k = 0; k < VARIANTS.length; k++) {
          const variant = VARIANTS[(b + k) % VARIANTS.length]!
          const into = samples[variant]
          for (let i = 0; i < BATCH; i++) {
            const t0 = performance.now()
            await calls[variant]()
            into.push(performance.now() - t0)
          }
        }
      }
      await fiber.dispose()
    } finally {
      await host.dispose()
    }
    const viaCtx = summarize(samples['ctx.tools.execute'])
    const viaHandle = summarize(samples['handle.execute'])
    const direct = summarize(samples['definition.execute'])
    const figures = {
      calls: CALLS,
      stoppedEarly,
      p50Ms: { ctx: round(viaCtx.p50, 5), handle: round(viaHandle.p50, 5), definition: round(direct.p50, 5) },
      p99Ms: { ctx: round(viaCtx.p99, 5), handle: round(viaHandle.p99, 5), definition: round(direct.p99, 5) },
      registryShareP50Ms: round(viaCtx.p50 - direct.p50, 5),
      serviceLookupShareP50Ms: round(viaCtx.p50 - viaHandle.p50, 5),
    }
    const rows = [
      row(`ctx.tools.execute p50, tool resolves at once (n=${viaCtx.n})`, { bridge: formatMs(viaCtx.p50), baseline: `${formatMs(direct.p50)} (definition)`, ratio: `+${formatMs(viaCtx.p50 - direct.p50)}` }),
      row('same, handle kept (no service lookup per call)', { bridge: formatMs(viaHandle.p50), baseline: `${formatMs(direct.p50)} (definition)`, ratio: `+${formatMs(viaHandle.p50 - direct.p50)}` }),
      row('ctx.tools.execute p99', { bridge: formatMs(viaCtx.p99), baseline: `${formatMs(direct.p99)} (definition)`, ratio: `+${formatMs(viaCtx.p99 - direct.p99)}` }),
    ]
    return { rows, targets: [], figures, notes: stoppedEarly ? [`stopped at ${viaCtx.n} calls per variant after ${TIME_LIMIT_MS / 1000} s`] : [] }
  },
}
