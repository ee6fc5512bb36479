// Types of provenance.mjs, for the TypeScript that imports it (clients/run.ts).
import type { TableName } from './verdict-digest.mjs'
export function provenance(table: TableName, root?: string): { ranAt: string; commit: string; dirty: boolean; kit: string; digest: string }
export function installedVersion(name: string, fromDir: string): string
export function packageDir(name: string, fromDir: string): string | undefined
export function packagesOf(name: string, fromDir: string): string[]
