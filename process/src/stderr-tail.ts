import { StringDecoder } from 'node:string_decoder'
import { quoteUntrusted, redactSecrets, type Redact } from './redact.ts'

/**
 * A bounded tail of a child's stderr: complete lines are handed back for debug logging, and the
 * last few are kept so an error about a dead child can quote what it said.
 *
 * Bytes are decoded once, by a StringDecoder, so a character split across two chunks survives.
 * Memory is bounded whatever the child writes: at most `maxLines` lines of `maxLineChars`, and an
 * unterminated line stops growing past its first `maxLineChars` plus a redaction margin.
 */
export class StderrTail {
  private readonly decoder = new StringDecoder('utf8')
  private partial = ''
  /** Characters of the current line that were dropped because it grew too long. */
  private partialDropped = 0
  private inPrivateKey = false
  private readonly lines: string[] = []

  constructor(
    private readonly redact: Redact = redactSecrets,
    private readonly maxLines = 20,
    private readonly maxLineChars = 500,
  ) {}

  /** Appends raw output and returns the complete lines it finished, redacted and bounded. */
  push(chunk: Buffer | string): string[] {
    const parts = (typeof chunk === 'string' ? chunk : this.decoder.write(chunk)).split(/\r?\n/)
    const complete: string[] = []
    for (let i = 0; i < parts.length; i++) {
      this.append(parts[i]!)
      if (i === parts.length - 1) break
      if (this.partial.length > 0) complete.push(this.takeLine())
      else this.partialDropped = 0
    }
    this.lines.push(...complete)
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines)
    return complete
  }

  /** The last lines, including an unterminated final one. */
  tail(): string[] {
    return this.partial ? [...this.lines, this.bound(this.partial, this.partialDropped)].slice(-this.maxLines) : [...this.lines]
  }

  private append(text: string): void {
    const room = this.maxLineChars + LINE_MARGIN - this.partial.length
    if (text.length <= room) this.partial += text
    else {
      this.partial += text.slice(0, Math.max(0, room))
      this.partialDropped += text.length - Math.max(0, room)
    }
  }

  private takeLine(): string {
    const line = this.keyLine(this.partial) ?? this.bound(this.partial, this.partialDropped)
    this.partial = ''
    this.partialDropped = 0
    return line
  }

  /**
   * A private key printed line by line: its body lines carry no marker of their own, so the
   * lines between BEGIN and END are replaced whole.
   */
  private keyLine(line: string): string | undefined {
    if (this.inPrivateKey) {
      if (/-----END [A-Z0-9 ]*PRIVATE KEY/.test(line)) this.inPrivateKey = false
      return '<redacted private key>'
    }
    if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY/.test(line) && !/-----END [A-Z0-9 ]*PRIVATE KEY/.test(line)) this.inPrivateKey = true
    return undefined
  }

  /** Lines are redacted before anything sees them: they reach logs, errors and the model. */
  private bound(line: string, dropped: number): string {
    return quoteUntrusted(line, this.maxLineChars, this.redact, line.length + dropped)
  }
}

/** Kept beyond a line's limit so that a secret crossing the limit is still recognised and removed. */
const LINE_MARGIN = 2048

/** A line that says what went wrong: `Error: ...`, `TypeError [CODE]: ...`, a Python `...Error:`, a panic. */
const REASON_LINE = /^\s*(?:(?:Uncaught )?[A-Za-z_.]*(?:Error|Exception)\b(?: \[[^\]]*\])?:|panic:|fatal:|FATAL\b)/

/**
 * The last `count` lines of a stderr tail, for quoting in an error. A crashing runtime ends with
 * its stack and version (Node's `Cannot find module ...` is then six or more lines up), so when
 * the line that names the failure is further up than that, it leads the excerpt in place of the
 * oldest line kept, and the lines skipped between are counted.
 */
export function stderrExcerpt(tail: readonly string[], count = 5): string[] {
  if (tail.length <= count) return [...tail]
  const last = tail.slice(-count)
  if (last.some((line) => REASON_LINE.test(line))) return last
  const reason = tail.findLastIndex((line, i) => i < tail.length - count && REASON_LINE.test(line))
  if (reason < 0) return last
  const skipped = tail.length - (count - 1) - reason - 1
  return [tail[reason]!, ...(skipped ? [`… ${skipped} more line${skipped === 1 ? '' : 's'} …`] : []), ...tail.slice(-(count - 1))]
}
