import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type YAMLError, type YAMLSeq } from 'yaml'
import { checkEntry, type EntryInput } from './entry.ts'
import { referenceTags } from './references.ts'
import type { Entry, LoaderIssue, ParseOptions } from './types.ts'

export type { ParseOptions } from './types.ts'

export type ParseOutcome =
  | FileError
  | {
      ok: true
      /** Usable entries, in file order (disabled ones included, flagged). */
      entries: Entry[]
      errors: LoaderIssue[]
      /** Ids present in the file whose entry has errors: whatever runs under them is left alone. */
      held: string[]
      /**
       * An entry with errors has no usable id, so it may be a running entry being edited: the
       * caller must not remove anything this time.
       */
      keepMissing: boolean
    }

type FileError = { ok: false; error: LoaderIssue }
type LineOf = (offset: number | undefined) => number | undefined

/**
 * Pure: cordis.yml text to entries. The file is a YAML list of `{ id, name, config, disabled? }`.
 * A file-level problem (syntax, wrong shape) makes the whole file unusable; a problem inside one
 * entry only disqualifies that entry.
 */
export function parseConfig(text: string, options: ParseOptions): ParseOutcome {
  const read = readEntries(text)
  return read.ok ? collect(read.inputs, options) : read
}

/** The file's entries as written, or the problem that makes the whole file unusable. */
function readEntries(text: string): FileError | { ok: true; inputs: EntryInput[] } {
  const lines = new LineCounter()
  const doc = parseDocument(text, { customTags: referenceTags, lineCounter: lines, uniqueKeys: true, prettyErrors: true, merge: true })
  const lineOf: LineOf = (offset) => (offset === undefined ? undefined : lines.linePos(offset).line)
  const list = topLevelList(doc, lineOf)
  if (!isSeq(list)) return list
  let values: unknown[]
  try {
    values = doc.toJS({ maxAliasCount: 100 }) as unknown[]
  } catch (error) {
    return fileError(`invalid YAML: ${error instanceof Error ? error.message : String(error)}`)
  }
  const items = list.items as (Node | null)[]
  const ranges = items.map((item) => (item as { range?: [number, number, number] }).range)
  const warnings = warningsByEntry(doc.warnings, ranges, lineOf)
  if (!(warnings instanceof Map)) return warnings
  const inputs = values.map((value, index) => ({
    value,
    index,
    line: lineOf(ranges[index]?.[0]),
    fieldLines: fieldLinesOf(items[index] ?? null, lineOf),
    warnings: (warnings.get(index) ?? []).map(firstLine),
  }))
  return { ok: true, inputs }
}

/** The top-level list, or why the file is not one. */
function topLevelList(doc: Document, lineOf: LineOf): YAMLSeq | FileError {
  const syntax = doc.errors[0]
  if (syntax) return fileError(`invalid YAML: ${firstLine(syntax)}`, lineOf(syntax.pos[0]))
  if (doc.contents === null) return fileError('the file is empty: write a list of entries (or [] to run no plugins)')
  if (isSeq(doc.contents)) return doc.contents
  const hint = isMap(doc.contents) && doc.contents.has('plugins') ? ' (move the items under "plugins:" to the top level)' : ''
  return fileError(`the top level must be a list of entries like "- id: ... name: ... config: ..."${hint}`, lineOf(doc.contents.range?.[0]))
}

/** YAML warnings by the entry they fall in; one outside every entry is a file error. */
function warningsByEntry(warnings: readonly YAMLError[], ranges: ([number, number, number] | undefined)[], lineOf: LineOf): Map<number, YAMLError[]> | FileError {
  const byEntry = new Map<number, YAMLError[]>()
  for (const warning of warnings) {
    const index = ranges.findIndex((range) => range !== undefined && warning.pos[0] >= range[0] && warning.pos[0] < range[2])
    if (index < 0) return fileError(firstLine(warning), lineOf(warning.pos[0]))
    byEntry.set(index, [...(byEntry.get(index) ?? []), warning])
  }
  return byEntry
}

/** Checks every entry in file order; an id counts as taken from its first valid use on. */
function collect(inputs: readonly EntryInput[], options: ParseOptions): ParseOutcome {
  const outcome = { ok: true as const, entries: [] as Entry[], errors: [] as LoaderIssue[], held: [] as string[], keepMissing: false }
  const seenIds = new Map<string, number | undefined>()
  for (const input of inputs) {
    const checked = checkEntry(input, options, seenIds)
    if (checked.id !== undefined) seenIds.set(checked.id, input.line)
    if (checked.entry) outcome.entries.push(checked.entry)
    else {
      outcome.errors.push(...checked.issues)
      if (checked.id !== undefined) outcome.held.push(checked.id)
      // Without an id we cannot tell which running entry this edit belongs to.
      else if (!checked.duplicate) outcome.keepMissing = true
    }
  }
  return outcome
}

function fieldLinesOf(node: Node | null, lineOf: LineOf): Map<string, number> {
  const into = new Map<string, number>()
  recordLines(node, '', into, lineOf)
  return into
}

/**
 * The line of each key path written in an entry (`name`, `config.env.PORT`, `config.args[0]`), so
 * that an issue points at its own line. Keys brought in by a merge (`<<: *common`) are not under
 * the entry, so they are not recorded: their issues point at the nearest written ancestor.
 */
function recordLines(node: Node | null, path: string, into: Map<string, number>, lineOf: LineOf): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      // A merge key (`<<`, read as a symbol) brings keys from elsewhere in the file: not this entry's lines.
      if (!isScalar(pair.key) || typeof pair.key.value === 'symbol' || pair.key.value === '<<') continue
      const at = path ? `${path}.${String(pair.key.value)}` : String(pair.key.value)
      const line = lineOf(pair.key.range?.[0])
      if (line !== undefined) into.set(at, line)
      recordLines(pair.value as Node | null, at, into, lineOf)
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const at = `${path}[${index}]`
      const line = lineOf((item as Node | null)?.range?.[0])
      if (line !== undefined) into.set(at, line)
      recordLines(item as Node | null, at, into, lineOf)
    })
  }
}

function fileError(message: string, line?: number): FileError {
  return { ok: false, error: { message, line } }
}

function firstLine(error: YAMLError): string {
  return error.message.split('\n')[0]!.replace(/:$/, '')
}
