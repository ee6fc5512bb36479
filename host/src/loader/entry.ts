/** Pure: the checks on one cordis.yml entry, `{ id, name, config, disabled? }`, once read from YAML. */

import { isRecord } from '@mcp-bridge/process'
import { pluginKey } from './names.ts'
import { resolveReferences } from './references.ts'
import { lineOfField, type Entry, type LoaderIssue, type ParseOptions } from './types.ts'

const ENTRY_FIELDS = new Set(['id', 'name', 'config', 'disabled'])
const ID_PATTERN = /^[A-Za-z0-9][\w.:-]{0,63}$/

/** One entry as the file wrote it, with what the YAML layer knows about where it is. */
export interface EntryInput {
  value: unknown
  /** 0-based position in the list, for the `#n` label of an entry without a usable id. */
  index: number
  line: number | undefined
  fieldLines: Map<string, number>
  /** YAML warnings inside this entry, already one line each. */
  warnings: readonly string[]
}

export interface CheckedEntry {
  /** The entry, when it has no issue. */
  entry?: Entry
  /** The entry's own id when valid and unique, even if other fields have issues. */
  id?: string
  /** What an issue names the entry by: its id, else its written id when well-formed, else `#n`. */
  label: string
  /** The written id is a string an earlier entry already holds. */
  duplicate: boolean
  issues: LoaderIssue[]
}

type Report = (field: string | undefined, message: string) => void

/** `seenIds` maps each id already taken by an earlier entry to that entry's line. */
export function checkEntry(input: EntryInput, options: ParseOptions, seenIds: ReadonlyMap<string, number | undefined>): CheckedEntry {
  const issues: LoaderIssue[] = []
  const report: Report = (field, message) => issues.push({ field, message, line: lineOfField(field, input.fieldLines, input.line) })
  const record = isRecord(input.value) ? input.value : undefined
  if (!record) report(undefined, 'must be a mapping with id, name and config')
  const rawId = record?.id
  const id = checkId(rawId, seenIds, report)
  for (const warning of input.warnings) report(undefined, warning)
  checkFields(record, report)
  const disabled = checkDisabled(record?.disabled, report)
  const key = checkName(record?.name, options, report)
  const config = checkConfig(record?.config, disabled, options, report)

  const label = id ?? (wellFormedId(rawId) ? rawId : `#${input.index + 1}`)
  const duplicate = typeof rawId === 'string' && seenIds.has(rawId)
  if (issues.length) return { id, label, duplicate, issues: issues.map((issue) => ({ ...issue, entry: label })) }
  const entry = { id: id!, name: record!.name as string, key: key!, config, disabled, line: input.line, fieldLines: input.fieldLines }
  return { entry, id, label, duplicate, issues }
}

function wellFormedId(rawId: unknown): rawId is string {
  return typeof rawId === 'string' && ID_PATTERN.test(rawId)
}

/** The id when it is well-formed and not taken by an earlier entry. */
function checkId(rawId: unknown, seenIds: ReadonlyMap<string, number | undefined>, report: Report): string | undefined {
  if (rawId === undefined) report('id', 'is required: give every entry a unique id')
  else if (!wellFormedId(rawId)) {
    report('id', `${JSON.stringify(rawId)} is invalid: use 1-64 characters from A-Z a-z 0-9 _ . : - starting with a letter or digit`)
  } else if (seenIds.has(rawId)) {
    const first = seenIds.get(rawId)
    report('id', `"${rawId}" is already used by the entry${first ? ` at line ${first}` : ' above'}: ids must be unique`)
  } else return rawId
  return undefined
}

function checkFields(record: Record<string, unknown> | undefined, report: Report): void {
  for (const key of Object.keys(record ?? {})) {
    if (!ENTRY_FIELDS.has(key)) report(key, 'is not an entry field (expected id, name, config, disabled); plugin options go under config')
  }
}

/** True only for `disabled: true`; anything else but a missing field or `false` is reported. */
function checkDisabled(disabled: unknown, report: Report): boolean {
  if (typeof (disabled ?? false) !== 'boolean') report('disabled', 'must be true or false')
  return disabled === true
}

/** The plugin's identity (see `pluginKey`), when `name` names one. */
function checkName(name: unknown, options: ParseOptions, report: Report): string | undefined {
  if (name === undefined) report('name', `is required: the plugin's package name or a path relative to this file`)
  else if (typeof name !== 'string') report('name', 'must be a string')
  else {
    const resolved = pluginKey(name, options.baseDir, options.builtins)
    if (resolved.kind !== 'error') return resolved.key
    report('name', resolved.message)
  }
  return undefined
}

/** The config with its references resolved; a missing config is `{}`. */
function checkConfig(written: unknown, disabled: boolean, options: ParseOptions, report: Report): unknown {
  const config = written ?? {}
  if (!isRecord(config)) report('config', 'must be a mapping of the plugin options')
  // A disabled entry never runs, so the variables it references need not exist.
  else if (!disabled) {
    const resolved = resolveReferences(config, options, 'config')
    for (const issue of resolved.issues) report(issue.field, issue.message)
    return resolved.value
  }
  return config
}
