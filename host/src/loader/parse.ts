import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLError } from 'yaml'
import { pluginKey } from './names.ts'
import { referenceTags, resolveReferences } from './references.ts'
import { lineOfField, type Entry, type LoaderIssue } from './types.ts'
import { isRecord } from '@mcp-bridge/plugin/rules'

export interface ParseOptions {
  /** Absolute directory of the file: `!path` values and plugin paths are resolved against it. */
  baseDir: string
  env: Readonly<Record<string, string | undefined>>
  /** Plugin names the host resolves itself (the bridge, plus any the host embeds). */
  builtins: ReadonlySet<string>
}

export type ParseOutcome =
  | { ok: false; error: LoaderIssue }
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

const ENTRY_FIELDS = new Set(['id', 'name', 'config', 'disabled'])
const ID_PATTERN = /^[A-Za-z0-9][\w.:-]{0,63}$/

/**
 * Pure: cordis.yml text to entries. The file is a YAML list of `{ id, name, config, disabled? }`.
 * A file-level problem (syntax, wrong shape) makes the whole file unusable; a problem inside one
 * entry only disqualifies that entry.
 */
export function parseConfig(text: string, options: ParseOptions): ParseOutcome {
  const lines = new LineCounter()
  const doc = parseDocument(text, { customTags: referenceTags, lineCounter: lines, uniqueKeys: true, prettyErrors: true, merge: true })
  const fileError = (message: string, line?: number): ParseOutcome => ({ ok: false, error: { message, line } })
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : lines.linePos(offset).line)

  const syntax = doc.errors[0]
  if (syntax) return fileError(`invalid YAML: ${firstLine(syntax)}`, lineOf(syntax.pos[0]))
  if (doc.contents === null) return fileError('the file is empty: write a list of entries (or [] to run no plugins)')
  if (!isSeq(doc.contents)) {
    const hint = isMap(doc.contents) && doc.contents.has('plugins') ? ' (move the items under "plugins:" to the top level)' : ''
    return fileError(`the top level must be a list of entries like "- id: ... name: ... config: ..."${hint}`, lineOf(doc.contents.range?.[0]))
  }
  let values: unknown[]
  try {
    values = doc.toJS({ maxAliasCount: 100 }) as unknown[]
  } catch (error) {
    return fileError(`invalid YAML: ${error instanceof Error ? error.message : String(error)}`)
  }

  const items = doc.contents.items
  const ranges = items.map((item) => (item as { range?: [number, number, number] }).range)
  const warningsByItem = new Map<number, YAMLError[]>()
  for (const warning of doc.warnings) {
    const index = ranges.findIndex((range) => range !== undefined && warning.pos[0] >= range[0] && warning.pos[0] < range[2])
    if (index < 0) return fileError(firstLine(warning), lineOf(warning.pos[0]))
    warningsByItem.set(index, [...(warningsByItem.get(index) ?? []), warning])
  }

  const entries: Entry[] = []
  const errors: LoaderIssue[] = []
  const held: string[] = []
  const firstLineOfId = new Map<string, number | undefined>()
  let keepMissing = false

  values.forEach((value, index) => {
    const line = lineOf(ranges[index]?.[0])
    const fieldLines = new Map<string, number>()
    recordLines(items[index] as Node | null, '', fieldLines, lineOf)
    const found: LoaderIssue[] = []
    const report = (field: string | undefined, message: string) => found.push({ field, message, line: lineOfField(field, fieldLines, line) })
    const record = isRecord(value) ? value : undefined
    if (!record) report(undefined, 'must be a mapping with id, name and config')

    const rawId = record?.id
    let id: string | undefined
    if (rawId === undefined) report('id', 'is required: give every entry a unique id')
    else if (typeof rawId !== 'string' || !ID_PATTERN.test(rawId)) {
      report('id', `${JSON.stringify(rawId)} is invalid: use 1-64 characters from A-Z a-z 0-9 _ . : - starting with a letter or digit`)
    } else if (firstLineOfId.has(rawId)) {
      const first = firstLineOfId.get(rawId)
      report('id', `"${rawId}" is already used by the entry${first ? ` at line ${first}` : ' above'}: ids must be unique`)
    } else {
      id = rawId
      firstLineOfId.set(rawId, line)
    }

    for (const warning of warningsByItem.get(index) ?? []) report(undefined, firstLine(warning))
    for (const key of Object.keys(record ?? {})) {
      if (!ENTRY_FIELDS.has(key)) report(key, 'is not an entry field (expected id, name, config, disabled); plugin options go under config')
    }

    const disabled = record?.disabled ?? false
    if (typeof disabled !== 'boolean') report('disabled', 'must be true or false')

    const name = record?.name
    let key: string | undefined
    if (name === undefined) report('name', `is required: the plugin's package name or a path relative to this file`)
    else if (typeof name !== 'string') report('name', 'must be a string')
    else {
      const resolved = pluginKey(name, options.baseDir, options.builtins)
      if (resolved.kind === 'error') report('name', resolved.message)
      else key = resolved.key
    }

    let config: unknown = record?.config ?? {}
    if (!isRecord(config)) report('config', 'must be a mapping of the plugin options')
    else if (disabled !== true) {
      // A disabled entry never runs, so the variables it references need not exist.
      const resolved = resolveReferences(config, options, 'config')
      for (const issue of resolved.issues) report(issue.field, issue.message)
      config = resolved.value
    }

    const label = id ?? (typeof rawId === 'string' && ID_PATTERN.test(rawId) ? rawId : `#${index + 1}`)
    if (found.length) {
      for (const issue of found) errors.push({ ...issue, entry: label })
      if (id !== undefined) held.push(id)
      // Without an id we cannot tell which running entry this edit belongs to.
      else if (!(typeof rawId === 'string' && firstLineOfId.has(rawId))) keepMissing = true
      return
    }
    entries.push({ id: id!, name: name as string, key: key!, config, disabled: disabled === true, line, fieldLines })
  })
  return { ok: true, entries, errors, held, keepMissing }
}

/**
 * The line of each key path written in an entry (`name`, `config.env.PORT`, `config.args[0]`), so
 * that an issue points at its own line. Keys brought in by a merge (`<<: *common`) are not under
 * the entry, so they are not recorded: their issues point at the nearest written ancestor.
 */
function recordLines(node: Node | null, path: string, into: Map<string, number>, lineOf: (offset: number | undefined) => number | undefined): void {
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

function firstLine(error: YAMLError): string {
  return error.message.split('\n')[0]!.replace(/:$/, '')
}
