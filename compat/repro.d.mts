// Types of repro.mjs, for the TypeScript that imports it (conformance/test/tables.test.ts).
interface Setup {
  argv: string[]
  env?: Record<string, string>
  path?: string
  host?: string
}
export const REPRO_PORT: number
export function reproduction(
  server: { id: string; stdio?: Setup; http?: Setup; calls?: Array<{ name: string; arguments: unknown }> },
  transport: 'stdio' | 'http',
  options: { requestTimeoutMs: number; startupTimeoutMs: number },
): string
