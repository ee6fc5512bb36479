/**
 * Pure: the one rule for untrusted text on stdout and stderr (the summary, the progress lines,
 * the error lines, GitHub annotations). Everything a server, a client or a results.json given to
 * `--compare`/`--merge` says is one item, and an item is written as part of one line: it can
 * neither end that line nor start a new one, so it can never forge a line of its own.
 *
 * - Control characters, line breaks included, are written as their escapes by the plugin's rule
 *   (`escapeControls`, process/src/controls.ts): `\n`, `\x1b`, `\u202e` show instead of acting.
 * - GitHub workflow commands are defused: the runner reads `::name …::` at the start of a line
 *   (after spaces) and the older `##[name]` anywhere in a line. `##[` is written `#\x23[`, and a
 *   `:` that would open a command at the start of an item `\x3a`, escapes in the same style.
 */
import { escapeControls } from '@mcp-bridge/process'

/** `text` as one line for a terminal or a CI log: no control acts, no workflow command is read. */
export function plain(text: string): string {
  return inline(text).replace(/^(\s*):(?=:)/, '$1\\x3a')
}

/**
 * `text` for the middle of a line (after the kit's own start, as a GitHub annotation's message):
 * no control acts, and no `##[` command is read. Its start needs `plain`.
 */
export function inline(text: string): string {
  return escapeControls(text).replace(/##\[/g, '#\\x23[')
}

/** `plain`, with whitespace runs (line breaks and tabs included) as one space and at most `max` characters. */
export function oneLine(text: string, max = 200): string {
  const flat = plain(text.replace(/[\n\t]+/g, ' ')).replace(/\s+/g, ' ')
  if (flat.length <= max) return flat
  // Never end on half a surrogate pair.
  const kept = /[\uD800-\uDBFF]$/.test(flat.slice(0, max)) ? flat.slice(0, max - 1) : flat.slice(0, max)
  return `${kept}…`
}
