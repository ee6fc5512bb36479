// Types of table-evidence.mjs, for the TypeScript that imports it (clients/, tests).
export interface RowProvenance {
  row: string
  packages: string[]
  node: string
  ranAt: string
  kit: string
  commit: string
  dirty: boolean
  digest: string
}
export interface TableEntry {
  file: string
  command: string
  sources: string[]
}
export interface SpecLike {
  ref?: string
  url?: string
  quote?: string
}
export function cell(text: unknown, max?: number): string
export function renderProvenance(rows: RowProvenance[], table: TableEntry): string[]
export function readProvenance(markdown: string): Array<{ row: string; digest: string }>
export function code(text: string): string
export function sentence(spec: SpecLike | undefined): string
export function shellWord(value: unknown): string
export function mergeRecords<T>(kept: T[], fresh: T[], order: string[], idOf: (record: T) => string): T[]
export function recordsJson(value: unknown, depth?: number, indent?: string): string
