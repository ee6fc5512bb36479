/**
 * Pure numbers and text: percentiles, summaries, ratios and the fixed-width table. No I/O.
 */

export interface Summary {
  n: number
  min: number
  p50: number
  p90: number
  p99: number
  max: number
  mean: number
}

/** Linear interpolation between closest ranks (the usual "type 7"); `p` in 0..100. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1)
  const low = Math.floor(rank)
  const high = Math.ceil(rank)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low)
}

export const median = (values: readonly number[]): number => percentile(values, 50)

export function summarize(values: readonly number[]): Summary {
  const n = values.length
  return {
    n,
    min: n ? Math.min(...values) : Number.NaN,
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: n ? Math.max(...values) : Number.NaN,
    mean: n ? values.reduce((sum, v) => sum + v, 0) / n : Number.NaN,
  }
}

/** a / b, or NaN when either side is missing or b is zero. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN
}

/** Rounds for JSON: keeps `digits` decimals, NaN and infinities become null. */
export function round(value: number, digits = 3): number | null {
  if (!Number.isFinite(value)) return null
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

/** Milliseconds for people: µs below 1 ms, one decimal below 100 ms, whole above, seconds past 10 s. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a'
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`
  if (ms < 100) return `${ms.toFixed(1)} ms`
  if (ms < 10_000) return `${ms.toFixed(0)} ms`
  return `${(ms / 1000).toFixed(1)} s`
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a'
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'n/a'
  if (Math.abs(bytes) < 1024) return `${bytes.toFixed(0)} B`
  if (Math.abs(bytes) < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

/** A fixed-width text table; every cell is already a string. */
export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: readonly string[]) => cells.map((cell, column) => (cell ?? '').padEnd(widths[column]!)).join('  ').trimEnd()
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

/** The same table as GitHub markdown (for bench/README.md). */
export function formatMarkdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|')
  const line = (cells: readonly string[]) => `| ${cells.map((cell) => escape(cell ?? '')).join(' | ')} |`
  return [line(header), `| ${header.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n')
}
