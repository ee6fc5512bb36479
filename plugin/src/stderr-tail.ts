import { redactSecrets } from './env.ts'

/**
 * A bounded tail of a child's stderr: complete lines are handed back for debug logging, and the
 * last few are kept so an error about a dead child can quote what it said.
 */
export class StderrTail {
  private partial = ''
  private readonly lines: string[] = []

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineChars = 500,
  ) {}

  /** Appends raw output and returns the complete lines it finished. */
  push(chunk: Buffer | string): string[] {
    const text = this.partial + chunk.toString()
    const parts = text.split(/\r?\n/)
    this.partial = (parts.pop() ?? '').slice(-this.maxLineChars * 4)
    const complete = parts.filter((line) => line.length > 0).map((line) => this.bound(line))
    this.lines.push(...complete)
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines)
    return complete
  }

  /** The last lines, including an unterminated final one. */
  tail(): string[] {
    return this.partial ? [...this.lines, this.bound(this.partial)].slice(-this.maxLines) : [...this.lines]
  }

  /** Lines are redacted before anything sees them: they reach logs, errors and the model. */
  private bound(line: string): string {
    const clean = redactSecrets(line)
    return clean.length > this.maxLineChars ? `${clean.slice(0, this.maxLineChars)}…` : clean
  }
}
