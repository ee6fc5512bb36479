// Types of render.mjs, for the TypeScript that imports it (conformance/test/tables.test.ts).
import type { RowProvenance, SpecLike, TableEntry } from '../scripts/table-evidence.mjs'
export interface TransportRecord {
  transport: 'stdio' | 'http'
  revision: string
  /** legacy, modern, dual, or — when neither era answered. */
  era?: string
  counts: Record<'pass' | 'fail' | 'warn' | 'skip' | 'information' | 'error', number>
  checks: Array<{ status: string; id: string; message: string; spec?: SpecLike; wire?: string[] }>
  command: string
}
export interface ServerRecord {
  server: string
  version: string
  provenance: RowProvenance
  transports: TransportRecord[]
}
export function transportRecord(run: { transport: 'stdio' | 'http'; suite: { checks: Array<{ id: string; status: string; message: string; spec?: SpecLike; details?: unknown; wire?: unknown[] }> }; dir: string; command: string; modern?: boolean }): TransportRecord
export function eraOf(legacy: boolean, modern: boolean | undefined): string
export function renderCompatibility(records: ServerRecord[], table: TableEntry): string
export function normalise(text: string, row: { dir?: string }): string
