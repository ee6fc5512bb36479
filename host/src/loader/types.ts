/** Shapes shared by the cordis.yml loader's pure core and its I/O layer. */

/** One validated entry of cordis.yml, before its plugin is resolved. */
export interface Entry {
  id: string
  /** `name` as written in the file, for messages. */
  name: string
  /**
   * The plugin's identity: a built-in's canonical name, an absolute path, or a package name.
   * Two entries with the same key run the same code, so only a config change separates them.
   */
  key: string
  /** Config with every environment and path reference already resolved. */
  config: unknown
  disabled: boolean
  /** 1-based line of the entry in the file, for messages. */
  line?: number
  /** 1-based line of each key path written in the entry (`config.env.PORT`), for messages. */
  fieldLines?: ReadonlyMap<string, number>
}

/**
 * The line an issue about `field` points at: the field's own line, or that of its nearest
 * ancestor written in the file (a key from a merge or a value the schema added has none), or the
 * entry's line.
 */
export function lineOfField(field: string | undefined, lines: ReadonlyMap<string, number> | undefined, entryLine: number | undefined): number | undefined {
  let at = field
  while (at && lines) {
    const line = lines.get(at)
    if (line !== undefined) return line
    const parent = at.replace(/(\.[^.[\]]*|\[\d+\])$/, '')
    if (parent === at) break
    at = parent
  }
  return entryLine
}

/** What parsing cordis.yml needs from outside the text. */
export interface ParseOptions {
  /** Absolute directory of the file: `!path` values and plugin paths are resolved against it. */
  baseDir: string
  env: Readonly<Record<string, string | undefined>>
  /** Plugin names the host resolves itself (the bridge, plus any the host embeds). */
  builtins: ReadonlySet<string>
}

/**
 * A problem the loader reports. `entry` is the id (or `#n` when the entry has no usable id),
 * `field` the dotted path inside the entry (`config.serverName`).
 */
export interface LoaderIssue {
  entry?: string
  field?: string
  line?: number
  message: string
}

/** What one load or reload did. Ids are listed in file order. */
export interface ReloadResult {
  file: string
  /** True when the file was read and every entry is running as written. */
  ok: boolean
  added: string[]
  updated: string[]
  removed: string[]
  unchanged: string[]
  /** Entries with errors: their previous instance (if any) keeps running untouched. */
  held: string[]
  /** Entries written with `disabled: true`. */
  disabled: string[]
  errors: LoaderIssue[]
  warnings: LoaderIssue[]
}

/** Renders an issue as one log line: `cordis.yml:12: entry "fs": config.serverName: ...`. */
export function formatIssue(issue: LoaderIssue, file?: string): string {
  const where = file ? `${file}${issue.line ? `:${issue.line}` : ''}: ` : issue.line ? `line ${issue.line}: ` : ''
  const entry = issue.entry === undefined ? '' : issue.entry.startsWith('#') ? `entry ${issue.entry}: ` : `entry "${issue.entry}": `
  const field = issue.field ? `${issue.field}: ` : ''
  return `${where}${entry}${field}${issue.message}`
}
