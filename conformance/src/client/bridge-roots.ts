import type { BeyondOutcome } from './adapter.ts'

/**
 * The driver protocol's `setRoots` for our plugin: a real configuration update of the instance
 * through Cordis' public `fiber.update`, as an operator editing `roots` would make it. The plugin
 * applies a change of `roots` alone in place and announces it (plugin/README.md, Roots); the kit
 * judges what reached the wire, not this answer. Returns the next config to update from. Any
 * Cordis fiber does (the reference host's, the DeepSeek harness' own Cordis in dsh-adapter.ts).
 */
export async function setRootsThroughConfig(
  fiber: { update(config: Record<string, unknown>): unknown },
  config: Record<string, unknown>,
  roots: Array<{ uri: string; name?: string }>,
): Promise<{ outcome: BeyondOutcome; config: Record<string, unknown> }> {
  const started = performance.now()
  const next = { ...config, roots }
  try {
    await fiber.update(next)
    return { outcome: { ok: true, value: {}, ms: Math.round(performance.now() - started) }, config: next }
  } catch (error) {
    return { outcome: { ok: false, error: error instanceof Error ? error.message : String(error), ms: Math.round(performance.now() - started) }, config }
  }
}
