/**
 * Pure: the argument conventions shared by the three CLIs (mcp-conformance, mcp-fixture,
 * mcp-bridge). node:util parseArgs in strict mode; a usage error is one line naming the reason,
 * then a pointer to --help, and exit code 2. Here, in the one package all three depend on, so
 * that the wording cannot drift apart.
 */

/** Timers fire at once for delays above 2^31-1 ms (Node warns and uses 1), so bound every duration. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** What a usage error prints on stderr: the reason, then where the usage is. */
export function usageErrorText(program: string, reason: string): string {
  return `${program}: ${reason}\nrun \`${program} --help\` for usage\n`
}

/** parseArgs's errors in the CLIs' own wording: lower case, one line, the option named once. */
export function argvErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown } | null)?.code
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? ''
  // "Option '-c, --config <value>' argument missing" names the option twice; keep the long form.
  const parts = quoted.split(/[\s,]+/)
  const option = parts.find((p) => p.startsWith('--')) ?? parts.find((p) => p.startsWith('-')) ?? quoted
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${JSON.stringify(quoted)}`
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('does not take an argument')) return `${option} takes no value`
    if (message.includes('ambiguous')) return `${option} needs a value (write ${option}=VALUE for one that starts with "-")`
    return `${option} needs a value`
  }
  return message.split('\n')[0] ?? message
}

/** A whole number in [min, max] from an option's text, or the one-line reason it is not. */
export function integerOption(name: string, text: string, min: number, max: number, unit = ''): number | string {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n
  return `--${name} must be a whole number from ${min} to ${max}${unit ? ` (${unit})` : ''}, not ${JSON.stringify(text)}`
}

/**
 * The candidate closest to `word` by edit distance (case-insensitive), when it is close enough to
 * be a typo of it: the "did you mean" of a config key, a scenario id, a command.
 */
export function nearestWord(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (!best || distance < best.distance) best = { candidate, distance }
  }
  return best && best.distance <= Math.max(1, Math.floor(word.length / 3)) ? best.candidate : undefined
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
