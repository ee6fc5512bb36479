// Types for the tests that read the faulty server's fault list and planted token.
export const FAULTS: Record<string, string>
export const TOKEN: string
export function respond(message: Record<string, unknown>, faults: Set<string>): Array<Record<string, unknown> | Buffer>
