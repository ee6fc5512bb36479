// Types for the tests that start the faulty HTTP server (plain JavaScript, like its stdio twin).
export function startFaultyHttp(faults?: string[]): Promise<{ url: string; close: () => Promise<void> }>
