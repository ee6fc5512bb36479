/**
 * The checks of one server run, in report order. A "Not testable" skip stands only when the check it
 * names reports a fail or warn in the same run: that check carries the failure, once. When it does
 * not, the skip is replaced by its fallback (the failure, at most at the check's own keyword).
 * The check it names may come later (the jsonrpc checks are judged last), so such a skip is held,
 * in place, until the run is over.
 */
import type { CheckResult } from '../model.ts'
import { dependencyOf, type Dependency } from './check.ts'

const carries = (check: CheckResult | undefined) => check?.status === 'fail' || check?.status === 'warn'

export class CheckLog {
  readonly checks: CheckResult[] = []
  private readonly held: Array<{ index: number; dependency: Dependency }> = []

  /** `clean`: what every check goes through before it is kept (redaction); `onCheck`: each final verdict, once. */
  constructor(
    private readonly clean: (check: CheckResult) => CheckResult,
    private readonly onCheck?: (check: CheckResult) => void,
  ) {}

  add(check: CheckResult): void {
    const dependency = dependencyOf(check)
    if (!dependency) return this.publish(this.clean(check))
    const prerequisite = this.find(dependency.prerequisite)
    // A prerequisite that is itself held may still turn into a failure: wait for it (held ones settle in order).
    const settled = prerequisite !== undefined && !this.held.some((h) => this.checks[h.index] === prerequisite)
    if (settled) return this.publish(this.clean(carries(prerequisite) ? check : dependency.fallback))
    this.held.push({ index: this.checks.length, dependency })
    this.checks.push(this.clean(check))
  }

  /** Settles every held skip against the whole run; the list is then final. */
  finish(): CheckResult[] {
    for (const { index, dependency } of this.held) {
      if (!carries(this.find(dependency.prerequisite))) this.checks[index] = this.clean(dependency.fallback)
      this.onCheck?.(this.checks[index]!)
    }
    this.held.length = 0
    return this.checks
  }

  private find(id: string): CheckResult | undefined {
    return this.checks.find((check) => check.id === id)
  }

  private publish(check: CheckResult): void {
    this.checks.push(check)
    this.onCheck?.(check)
  }
}
