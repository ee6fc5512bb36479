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
import { interleavedRounds, type RoundsPlan, type RoundsSamples } from './rounds.ts'
import { formatMs, round, summarize } from './stats.ts'

/** A slower machine reports fewer calls rather than running long (no target rides on it). */
const PLAN: RoundsPlan = { warmup: 2_000, warmupLimitMs: 3_000, calls: 20_000, batch: 500, timedLimitMs: 8_000, minBatches: 3 }

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
    let rounds: RoundsSamples<Variant>
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
      const calls: Record<Variant, () => Promise<void>> = {
        'ctx.tools.execute': async () => void (await ctx.tools.execute('micro', { text: 'hello', n: n++ })),
        'handle.execute': async () => void (await handle.execute('micro', { text: 'hello', n: n++ })),
        'definition.execute': async () => {
          const args = { text: 'hello', n: n++ }
          const exec: ToolExecution = { callId: String(n), name: 'micro', arguments: args, signal: idle }
          await definition.execute(args, exec)
        },
      }
      log(`registry: ${PLAN.warmup} warm-up + ${PLAN.calls} timed calls per variant (${VARIANTS.join(', ')})`)
      rounds = await interleavedRounds(VARIANTS, calls, PLAN)
      await fiber.dispose()
    } finally {
      await host.dispose()
    }
    const { wall: samples, stoppedEarly } = rounds
    const viaCtx = summarize(samples['ctx.tools.execute'])
    const viaHandle = summarize(samples['handle.execute'])
    const direct = summarize(samples['definition.execute'])
    const figures = {
      plan: PLAN,
      warmupRounds: rounds.warmupRounds,
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
    return { rows, targets: [], figures, notes: stoppedEarly ? [`stopped at ${viaCtx.n} calls per variant after ${PLAN.timedLimitMs / 1000} s`] : [] }
  },
}
