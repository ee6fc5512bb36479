// Types for the tests that import the SEP-2243 server fixture (plain JavaScript, like v2-server.mjs).
export const TOOLS: Record<string, Record<string, unknown>>
export function startParamHeaderServer(): Promise<{ url: string; calls: Array<Record<string, string>>; close: () => Promise<void> }>
