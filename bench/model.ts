/** What a benchmark hands back to the orchestrator. Types only. */

/** One line of the results table; every cell already formatted ('' when it does not apply). */
export interface Row {
  measure: string
  bridge: string
  baseline: string
  ratio: string
  target: string
  holds: string
}

/** A speed target, decided in the same run as its baseline. `holds: null` = could not be decided. */
export interface Target {
  id: string
  description: string
  measured: number | null
  limit: number | null
  unit: string
  holds: boolean | null
}

export interface BenchReport {
  rows: Row[]
  targets: Target[]
  /** Every raw figure, for the JSON file. */
  figures: Record<string, unknown>
  notes: string[]
}

export interface Bench {
  id: string
  title: string
  /**
   * The ids of the targets it reports on every run. One it does not report, or reports undecided
   * (holds: null), is a failure of the benchmark (targets.ts), never a silent gap in the table.
   */
  targets: readonly string[]
  run(log: (line: string) => void): Promise<BenchReport>
}

export interface BenchOutcome extends BenchReport {
  id: string
  title: string
  durationMs: number
  /** The benchmark itself failed (harness error), with the message. */
  error?: string
}

export function row(measure: string, cells: Partial<Omit<Row, 'measure'>> = {}): Row {
  return { measure, bridge: '', baseline: '', ratio: '', target: '', holds: '', ...cells }
}

export function verdict(holds: boolean | null): string {
  return holds === null ? '?' : holds ? 'yes' : 'NO'
}
