/*
 * Server text (names, descriptions, results, errors, stderr) reaches log lines and terminals: a
 * control character in it must be shown, never obeyed. One character class for both.
 */

/**
 * C0 controls (line feed, carriage return and tab too), DEL and C1 controls, the Unicode line and
 * paragraph separators, and the bidirectional embeddings, overrides and isolates, which reorder
 * what a terminal shows ("Trojan Source"). Nothing else: letters of every script stay as they are.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g // eslint-disable-line no-control-regex -- finding them is the point

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * Pure: text fit for one line of a log or a terminal, with every control character written as
 * its escape (`\n`, `\x1b`, `\u202e`) instead of acting. Backslashes are left as they are, so
 * `C:\new` reads as itself; an escape can therefore stand for itself, but it never acts.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (char) => SHORT_ESCAPES[char] ?? codeEscape(char.charCodeAt(0)))
}

function codeEscape(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * Pure: JSON (compact or indented) with the same controls written as `\uXXXX`. JSON.stringify
 * already escapes C0 controls inside strings, so a raw one is layout (an indented line break) and
 * stays; the others can only stand inside a string, where `\uXXXX` means the same character: the
 * JSON stays exact, and a terminal shows it instead of obeying it.
 */
export function escapeControlsInJson(json: string): string {
  return json.replace(CONTROLS, (char) => (char === '\n' ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
}
