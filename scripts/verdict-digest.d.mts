// Types of verdict-digest.mjs, for the TypeScript that imports it (clients/, tests).
import type { TableEntry } from './table-evidence.mjs'
export type TableName = 'clients' | 'servers'
export const REPO_ROOT: string
export const TABLES: Record<TableName, TableEntry>
export function expand(entry: string, root?: string): string[]
export function verdictDigest(table: TableName, root?: string): { digest: string; files: string[] }
export function digestOf(sources: string[], root?: string): { digest: string; files: string[] }
