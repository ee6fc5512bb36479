// Pure: what both published tables (conformance/docs/CLIENTS.md, docs/COMPATIBILITY.md) say about
// their own evidence, written once: the provenance block (who was judged, with which versions, by
// which kit and verdict code), the quoted sentence of a verdict, and shell words for the one-line
// reproduction commands. readProvenance is the parser conformance/test/tables.test.ts uses.

const PROVENANCE_HEADER = '| id | packages judged | Node | run at (UTC) | kit | kit commit | verdict digest |'

/** Table-cell text: one line, pipes escaped, bounded. */
export const cell = (text, max = 300) => {
  const flat = String(text).replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

/**
 * `rows`: { row, packages: string[], node, ranAt, kit, commit, dirty, digest }, in table order.
 * `table`: an entry of TABLES in scripts/verdict-digest.mjs (its file and regeneration command).
 */
export function renderProvenance(rows, table) {
  const lines = [
    '## Provenance',
    '',
    'Each row was judged by the kit at the commit shown; `+` marks a working tree whose verdict code differed',
    `from that commit. The verdict digest covers the files listed in \`scripts/verdict-digest.mjs\`; when it no`,
    `longer matches the code, \`conformance/test/tables.test.ts\` fails until \`${table.command}\` (or \`${table.command} -- <id>\``,
    'for the rows named) regenerates the table.',
    '',
    PROVENANCE_HEADER,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ]
  for (const r of rows) {
    const packages = r.packages.length ? r.packages.map((p) => `\`${p}\``).join(', ') : '—'
    lines.push(`| ${cell(r.row)} | ${packages} | ${r.node} | ${r.ranAt} | ${r.kit} | \`${r.commit}\`${r.dirty ? '+' : ''} | \`${r.digest}\` |`)
  }
  const dates = rows.map((r) => r.ranAt).sort()
  const commits = [...new Set(rows.map((r) => `${r.commit}${r.dirty ? '+' : ''}`))]
  const digests = [...new Set(rows.map((r) => r.digest))]
  if (rows.length) {
    const span = dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} to ${dates.at(-1)}`
    lines.push('', `Run ${span}; kit commit${commits.length > 1 ? 's' : ''} ${commits.map((c) => `\`${c}\``).join(', ')}; verdict digest${digests.length > 1 ? 's' : ''} ${digests.map((d) => `\`${d}\``).join(', ')}.`)
  }
  return lines
}

/** The rows of a table's provenance block: { row, digest }; an empty list when it has none. */
export function readProvenance(markdown) {
  const lines = markdown.split('\n')
  const start = lines.indexOf(PROVENANCE_HEADER)
  if (start < 0) return []
  const rows = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    const cells = line.slice(1, -1).split(/(?<!\\) \| /).map((c) => c.trim())
    rows.push({ row: cells[0], digest: (cells[6] ?? '').replace(/`/g, '') })
  }
  return rows
}

/** Inline code that may itself hold backticks (a shell command): a longer fence then. */
export const code = (text) => (String(text).includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``)

/** The sentence a verdict enforces, quoted, with its citation: “…” ([ref](url)). */
export function sentence(spec) {
  if (!spec?.ref) return ''
  // A client rule's ref repeats its sentence after a colon: shown once, as the quote.
  const name = spec.quote ? spec.ref.replace(/: "[^]*$/, '') : spec.ref
  const ref = spec.url ? `[${cell(name, 200)}](${spec.url})` : cell(name, 200)
  return spec.quote ? `“${cell(spec.quote, 400)}” (${ref})` : `(${ref})`
}

/**
 * One shell word for a POSIX shell. `{dir}` and `{root}` become the shell variables `$d` (a temp
 * directory) and `$r` (the repository root) of the command they appear in, so such a word is
 * double-quoted; any other word is single-quoted unless it is plainly safe.
 */
export function shellWord(value) {
  const text = String(value)
  if (/\{(dir|root)\}/.test(text)) return `"${text.replace(/[\\"$`]/g, '\\$&').replaceAll('{dir}', '$d').replaceAll('{root}', '$r')}"`
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * The records a table shows after a run: the fresh ones, and for every other id in `order` (the
 * current list of clients or servers) the record kept from before; an id no longer listed drops out.
 */
export function mergeRecords(kept, fresh, order, idOf) {
  const byId = new Map([...kept, ...fresh].map((record) => [idOf(record), record]))
  return order.flatMap((id) => byId.get(id) ?? [])
}

/**
 * JSON for a table's stored records: indented down to `depth`, one line per value below it (a run,
 * a check), so a re-run's diff shows the runs that changed and nothing else.
 */
export function recordsJson(value, depth = 3, indent = '') {
  if (depth === 0 || value === null || typeof value !== 'object') return JSON.stringify(value)
  const inner = `${indent} `
  const entries = Array.isArray(value) ? value.map((v) => recordsJson(v, depth - 1, inner)) : Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${recordsJson(v, depth - 1, inner)}`)
  if (!entries.length) return Array.isArray(value) ? '[]' : '{}'
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return `${open}\n${entries.map((e) => `${inner}${e}`).join(',\n')}\n${indent}${close}`
}
