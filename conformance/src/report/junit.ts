/**
 * Pure: JUnit XML, one <testsuite> per SuiteResult (so one per spec revision of a
 * `--spec-version all` run, with the revision as a property) and one <testcase> per check. fail → <failure>,
 * error → <error>, skip → <skipped>; warnings and baseline-expected failures pass with a
 * <system-out> note. Stale baseline entries become failing testcases of a "baseline" suite.
 */
import type { CheckResult, RunReport, SuiteResult } from '../model.ts'
import { escapeXml, escapeXmlAttribute } from './escape.ts'
import { revisionOfSuite } from './revisions.ts'

const MAX_BODY = 8_000

export function formatJunit(report: RunReport): string {
  const suites = report.suites.map(formatSuite)
  if (report.staleBaseline.length > 0) suites.push(formatStale(report.staleBaseline))
  const all = report.suites.flatMap((s) => s.checks)
  const failures = all.filter(isFailure).length + report.staleBaseline.length
  const attrs = attributes({
    name: report.tool.name,
    tests: all.length + report.staleBaseline.length,
    failures,
    errors: all.filter((c) => c.status === 'error').length,
    skipped: all.filter((c) => c.status === 'skip').length,
    time: seconds(report.durationMs),
  })
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs}>\n${suites.join('')}</testsuites>\n`
}

const isFailure = (c: CheckResult) => c.status === 'fail' && !c.expected

function formatSuite(suite: SuiteResult): string {
  const attrs = attributes({
    name: suite.id,
    tests: suite.checks.length,
    failures: suite.checks.filter(isFailure).length,
    errors: suite.checks.filter((c) => c.status === 'error').length,
    skipped: suite.checks.filter((c) => c.status === 'skip').length,
    time: seconds(suite.durationMs),
  })
  const properties = [
    ['title', suite.title],
    ['kind', suite.kind],
    ['target', suite.target],
    ...(suite.transport ? [['transport', suite.transport]] : []),
    ...(suite.era ? [['era', suite.era]] : []),
    ...revisionProperties(suite),
  ]
    .map(([name, value]) => `      <property ${attributes({ name: name ?? '', value: value ?? '' })}/>\n`)
    .join('')
  const cases = suite.checks.map((check) => formatCase(suite.id, check)).join('')
  return `  <testsuite ${attrs}>\n    <properties>\n${properties}    </properties>\n${cases}  </testsuite>\n`
}

function revisionProperties(suite: SuiteResult): string[][] {
  const revision = revisionOfSuite(suite)
  if (!revision) return []
  return [['revision', revision.requested], ...(revision.negotiated ? [['negotiated', revision.negotiated]] : []), ['supported', String(revision.supported)]]
}

function formatCase(suiteId: string, check: CheckResult): string {
  const attrs = attributes({ classname: suiteId, name: `${check.id}: ${check.title}` })
  const body = escapeXml(describe(check))
  const message = escapeXmlAttribute(check.message)
  switch (check.status) {
    case 'pass':
      return `    <testcase ${attrs}/>\n`
    case 'fail':
      if (check.expected) return `    <testcase ${attrs}>\n      <system-out>EXPECTED FAILURE (baseline): ${body}</system-out>\n    </testcase>\n`
      return `    <testcase ${attrs}>\n      <failure message="${message}" type="fail">${body}</failure>\n    </testcase>\n`
    case 'error':
      return `    <testcase ${attrs}>\n      <error message="${message}" type="error">${body}</error>\n    </testcase>\n`
    case 'skip':
      return `    <testcase ${attrs}>\n      <skipped message="${message}"/>\n    </testcase>\n`
    case 'warn':
      return `    <testcase ${attrs}>\n      <system-out>WARN: ${body}</system-out>\n    </testcase>\n`
  }
}

function formatStale(stale: string[]): string {
  const cases = stale
    .map((entry) => {
      const attrs = attributes({ classname: 'baseline', name: entry })
      const text = `stale baseline entry: ${entry} no longer fails; remove it from the baseline`
      return `    <testcase ${attrs}>\n      <failure message="${escapeXmlAttribute(text)}" type="stale-baseline">${escapeXml(text)}</failure>\n    </testcase>\n`
    })
    .join('')
  const attrs = attributes({ name: 'baseline', tests: stale.length, failures: stale.length, errors: 0, skipped: 0, time: '0' })
  return `  <testsuite ${attrs}>\n${cases}  </testsuite>\n`
}

/** The failure body: message, spec citation and (bounded) evidence. */
function describe(check: CheckResult): string {
  const lines = [check.message]
  if (check.spec) lines.push(`Spec: ${check.spec.ref}${check.spec.url ? ` <${check.spec.url}>` : ''}`)
  if (check.details !== undefined) lines.push(`Details: ${JSON.stringify(check.details, null, 2)}`)
  if (check.wire?.length) lines.push(`Wire: ${JSON.stringify(check.wire, null, 2)}`)
  const text = lines.join('\n')
  return text.length <= MAX_BODY ? text : `${text.slice(0, MAX_BODY)}… [truncated]`
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key}="${escapeXmlAttribute(String(value))}"`)
    .join(' ')
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3)
}
