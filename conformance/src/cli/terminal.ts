/**
 * What stderr can take. On a terminal: one progress line that rewrites itself (carriage return
 * and spaces, no escape codes) and colour unless NO_COLOR is set. Anywhere else (a CI log, a
 * pipe, a file): plain lines, one per finished run, and never an escape code.
 */
import { plain } from '../report/line.ts'

/** https://no-color.org: any non-empty NO_COLOR turns colour off. */
export function useColor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  return isTTY && !env.NO_COLOR
}

/** A status line at the bottom of a terminal; permanent lines are written above it. */
export class LiveLine {
  private shown = 0

  constructor(
    private readonly write: (text: string) => void,
    /** Characters that fit on one terminal line: a wrapped line could not be rewritten. */
    private readonly width: number,
  ) {}

  set(text: string): void {
    const chars = Array.from(plain(text).replace(/\s+/g, ' '))
    const fitted = chars.length < this.width ? chars.join('') : `${chars.slice(0, Math.max(0, this.width - 2)).join('')}…`
    const length = Array.from(fitted).length
    this.write(`\r${fitted}${' '.repeat(Math.max(0, this.shown - length))}`)
    this.shown = length
  }

  /** Writes `text` (whole lines) where the status line was; the next set() draws it again below. */
  line(text: string): void {
    this.clear()
    this.write(text)
  }

  clear(): void {
    if (this.shown) this.write(`\r${' '.repeat(this.shown)}\r`)
    this.shown = 0
  }
}
