// Pure: lines up the official suite's checks with ours, per target and revision. Each official check
// (INFO-level observations left out) gets one class:
//   not-spoken   our kit found that the target does not speak the revision: nothing to compare
//   fixture      the official check failed for want of a tool, prompt or resource of its own test server
//   undeclared   the official check exercised a capability the target does not declare (a
//                disagreement when our check of a server without it, prompts/undeclared say, passes)
//   ours-none    no check of ours covers the requirement (mapping.mjs), or each one that does skipped
//   official-skip the official check skipped
//   agree        same verdict
//   disagree     one fails what the other passes
//   severity     one fails what the other warns about (a MUST against a SHOULD)
//   warn-differs one warns about what the other passes
//   official-wrong an official fail or warn that ours has no verdict for, judged wrong (judgements.mjs),
//                or an official pass on the refusal of a tool the target does not have
// and each fail or warn of ours that no official check covers is a row of class ours-only.
import { CAPABILITY_OF_CHECK, FIXTURE_REASONS, MAPPING } from './mapping.mjs'
import { judgementOf } from './judgements.mjs'

const OFFICIAL_STATUS = { SUCCESS: 'pass', FAILURE: 'fail', WARNING: 'warn', SKIPPED: 'skip' }
const RANK = { pass: 0, skip: 0, warn: 1, fail: 2, error: 3 }
/** Untrusted text from either runner, bounded before it reaches a report. */
const bounded = (text, max = 200) => {
  const flat = String(text ?? '').replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** The worst of several statuses by RANK (a fail outranks a warn, a warn a pass). */
const worst = (statuses) => statuses.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'pass')

/**
 * A pass on the answer to a call of a tool the target does not have: an isError result whose text
 * says the tool was not found (the SDK's McpServer answers an unknown tool so), taken by the
 * official check for the outcome of its test server's tool.
 */
function vacuous(check) {
  const result = check.status === 'SUCCESS' ? check.details?.result : undefined
  return result?.isError === true && (result.content ?? []).some((c) => c?.type === 'text' && /\bTool \S+ not found\b/.test(String(c.text)))
}

/** One official scenario's checks, repeated ids merged into their worst status. */
function officialChecks(checks) {
  const byId = new Map()
  for (const check of checks ?? []) {
    const status = OFFICIAL_STATUS[check.status]
    if (!status) continue
    const seen = byId.get(check.id)
    if (!seen || RANK[status] > RANK[seen.status]) byId.set(check.id, { id: check.id, status, message: bounded(check.errorMessage), vacuous: vacuous(check), refs: (check.specReferences ?? []).map((ref) => ref.url) })
  }
  return [...byId.values()]
}

/** The capabilities the target declared in our run: the first result on the wire that carries them. */
function declaredCapabilities(suite) {
  for (const check of suite?.checks ?? []) {
    for (const entry of check.wire ?? []) {
      const capabilities = entry?.message?.result?.capabilities
      if (capabilities && typeof capabilities === 'object') return Object.keys(capabilities)
    }
  }
  return undefined
}

/** Our check that judges a server without the capability. */
const UNDECLARED_CHECK = { prompts: 'prompts/undeclared', resources: 'resources/undeclared', completions: 'completion/undeclared' }
const brief = (c) => ({ id: c.id, status: c.status, message: bounded(c.message), keyword: c.spec?.keyword })

const matches = (patterns, id) => patterns.some((p) => (typeof p === 'string' ? p === id : p.test(id)))

function classify({ scenario, check, supported, capabilities, suite }) {
  const base = { scenario, official: check }
  if (!supported) return { ...base, class: 'not-spoken' }
  if (check.status !== 'pass' && FIXTURE_REASONS.some((re) => re.test(check.message))) return { ...base, class: 'fixture' }
  if (check.vacuous) return { ...base, ours: [], class: 'official-wrong' }
  // A scenario about the capability fails as a whole without it; a check of another scenario
  // (caching lists prompts too) only where its own request was refused.
  const undeclared = (capability) => capability && capabilities && !capabilities.includes(capability)
  const ofScenario = CAPABILITY_OF_CHECK.find(([re]) => re.test(scenario))?.[1]
  const ofCheck = CAPABILITY_OF_CHECK.find(([re]) => re.test(check.id))?.[1]
  const capability = check.status === 'pass' ? undefined : undeclared(ofScenario) ? ofScenario : undeclared(ofCheck) && /Method not found|-32601/.test(check.message) ? ofCheck : undefined
  if (capability) {
    // Ours judges the other side of it: a server without the capability must not serve it.
    const ours = (suite?.checks ?? []).filter((c) => c.id === UNDECLARED_CHECK[capability] && c.status !== 'skip').map(brief)
    return { ...base, ours, class: 'undeclared', capability }
  }
  const patterns = MAPPING[check.id] ?? []
  const ours = (suite?.checks ?? []).filter((c) => matches(patterns, c.id)).map(brief)
  const judged = ours.filter((c) => c.status !== 'skip')
  if (!judged.length) {
    const wrongOfficial = check.status !== 'pass' && judgementOf({ official: check })?.wrong === 'official'
    return { ...base, ours, class: wrongOfficial ? 'official-wrong' : 'ours-none' }
  }
  if (check.status === 'skip') return { ...base, ours, class: 'official-skip' }
  const mine = worst(judged.map((c) => c.status))
  const pair = [check.status, mine].sort((a, b) => RANK[a] - RANK[b]).join('/')
  const cls = check.status === mine ? 'agree' : pair === 'pass/fail' || pair === 'pass/error' ? 'disagree' : pair === 'warn/fail' ? 'severity' : pair === 'pass/warn' ? 'warn-differs' : 'disagree'
  return { ...base, ours, oursStatus: mine, class: cls }
}

/**
 * `targets`: [{ id, era, url, official: { [revision]: { [scenario]: checks[] } }, ours: results.json }];
 * `sets`: { [revision]: { scored, unscored } }. Returns { rows, summary, disagreements }.
 */
export function lineUp({ targets, sets, revisions }) {
  const rows = []
  const summary = []
  for (const target of targets) {
    for (const revision of revisions) {
      const entry = target.ours?.revisions?.find((r) => r.revision === revision)
      const suite = target.ours?.suites?.find((s) => s.id === entry?.suite)
      const supported = entry?.supported === true
      const capabilities = declaredCapabilities(suite)
      const { scored = [], unscored = [] } = sets[revision] ?? {}
      const scenarios = target.official[revision] ?? {}
      const counts = { scenariosPassed: 0, scenariosFailed: 0, missing: [] }
      for (const scenario of [...scored, ...unscored]) {
        const checks = scenarios[scenario]
        if (!checks) {
          counts.missing.push(scenario)
          continue
        }
        const merged = officialChecks(checks)
        if (scored.includes(scenario)) {
          if (merged.some((c) => c.status === 'fail')) counts.scenariosFailed++
          else counts.scenariosPassed++
        }
        for (const check of merged) rows.push({ target: target.id, revision, scored: scored.includes(scenario), ...classify({ scenario, check, supported, capabilities, suite }) })
      }
      // Our own verdicts that no official check covers: a fail or warn here has no counterpart to agree or disagree with.
      const covered = Object.values(MAPPING).flat()
      for (const check of suite?.checks ?? []) {
        if (!supported || !['fail', 'warn'].includes(check.status) || matches(covered, check.id)) continue
        rows.push({ target: target.id, revision, scored: false, scenario: '—', official: { id: '—', status: 'none', message: '' }, ours: [{ id: check.id, status: check.status, message: bounded(check.message), keyword: check.spec?.keyword }], class: 'ours-only' })
      }
      const classes = {}
      for (const row of rows.filter((r) => r.target === target.id && r.revision === revision)) classes[row.class] = (classes[row.class] ?? 0) + 1
      const oursVerdict = !supported ? 'not spoken' : entry?.verdict
      summary.push({ target: target.id, era: target.era, revision, supported, capabilities, official: counts, oursVerdict, oursSummary: suite ? tally(suite) : undefined, classes })
    }
  }
  const disagreements = rows
    .filter((r) => ['disagree', 'severity', 'warn-differs', 'official-wrong'].includes(r.class) || (r.class === 'undeclared' && r.ours.some((c) => c.status === 'pass')))
    .map((r) => ({ ...r, judgement: judgementOf(r) }))
  return { rows, summary, disagreements }
}

function tally(suite) {
  const counts = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 }
  for (const check of suite.checks) counts[check.status] = (counts[check.status] ?? 0) + 1
  return counts
}

const cell = (text) => String(text ?? '').replaceAll('|', '\\|')
const oursCell = (ours) => (ours?.length ? ours.map((c) => `\`${c.id}\` ${c.status}${c.keyword ? ` (${c.keyword})` : ''}`).join(', ') : '—')

/** The line-up as Markdown: one summary table, the disagreements, then every row per target. */
export function renderMarkdown({ date, commit, versions, summary, rows, disagreements }) {
  const lines = [
    `# Official suite and our kit, side by side (${date})`,
    '',
    `Commit ${commit}; @modelcontextprotocol/conformance ${versions.official} (Node ${versions.node22}); our kit ${versions.ours} (Node ${versions.node}); server-everything ${versions.serverEverything}; @modelcontextprotocol/server ${versions.sdkServer}.`,
    '',
    '| target | revision | official: scored scenarios | ours | classes of the official checks |',
    '|---|---|---|---|---|',
    ...summary.map((s) => {
      const official = `${s.official.scenariosPassed} pass, ${s.official.scenariosFailed} fail${s.official.missing.length ? `, ${s.official.missing.length} without results` : ''}`
      const ours = s.oursSummary ? `${s.oursVerdict} (${Object.entries(s.oursSummary).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(', ')})` : 'no suite'
      const classes = Object.entries(s.classes).map(([k, n]) => `${k} ${n}`).join(', ')
      return `| ${s.target} | ${s.revision} | ${official} | ${ours} | ${classes} |`
    }),
    '',
    `## Disagreements and wrong verdicts (${disagreements.length})`,
    '',
    '| target | revision | official check (scenario) | official | ours | class | wrong | sentence (why) |',
    '|---|---|---|---|---|---|---|---|',
    ...disagreements.map((d) => {
      const j = d.judgement
      const sentence = j ? `${j.page}: “${j.sentence}” (${j.why})` : 'not yet judged'
      return `| ${d.target} | ${d.revision} | \`${d.official.id}\` (${d.scenario}${d.scored ? '' : ', not scored'}) | ${d.official.status}: ${cell(d.official.message)} | ${cell(oursCell(d.ours))} | ${d.class} | ${j?.wrong ?? '?'} | ${cell(sentence)} |`
    }),
    '',
  ]
  for (const target of [...new Set(rows.map((r) => r.target))]) {
    lines.push(`## ${target}`, '', '| revision | official check (scenario) | official | class | ours |', '|---|---|---|---|---|')
    for (const r of rows.filter((row) => row.target === target)) {
      lines.push(`| ${r.revision} | \`${r.official.id}\` (${r.scenario}${r.scored ? '' : ', not scored'}) | ${r.official.status}${r.official.message ? `: ${cell(r.official.message)}` : ''} | ${r.class}${r.capability ? ` (${r.capability})` : ''} | ${cell(oursCell(r.ours))} |`)
    }
    lines.push('')
  }
  return lines.join('\n')
}
