// The README's way of hosting, typed: a cordis Context, the reference ToolRegistry and the plugin.
// Type-checked (never run) by test/package/package.test.ts under moduleResolution bundler only:
// under node16, cordis 4.0.0-rc.10's lib/index.d.ts re-exports './context' and its siblings without
// file extensions, which node16 refuses, so `import { Context } from 'cordis'` has no value there
// (a cordis problem that no skipLibCheck hides; see the test).
import { Context } from 'cordis'
import * as bridge from '@mcp-bridge/plugin'
import type { ToolResult } from '@mcp-bridge/plugin'
import { ToolRegistry } from '@mcp-bridge/host'

export async function echo(entry: string): Promise<string> {
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  const fiber = ctx.plugin(bridge, { serverName: 'everything', transport: 'stdio', command: process.execPath, args: [entry] })
  await fiber
  // ctx.tools is typed by the plugin's `declare module 'cordis'` augmentation
  const result: ToolResult = await ctx.tools.execute('mcp__everything__echo', { message: 'hi' })
  // @ts-expect-error: execute takes the tool's public name first
  void ctx.tools.execute(42)
  await fiber.dispose()
  return result.isError ? result.error.code : JSON.stringify(result.value)
}
