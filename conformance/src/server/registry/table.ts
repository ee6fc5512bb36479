/**
 * Pure: the docs' table of server checks, rendered from the registry, so the documentation and
 * the code cannot disagree (a test fails when conformance/docs/SERVER-CHECKS.md is stale).
 */
import { citeModern } from '../modern/judge.ts'
import { MODERN_CHECKS } from '../modern/registry.ts'
import { KNOWN_REVISIONS, LATEST_MODERN_REVISION, type Revision } from '../spec.ts'
import { topicLabel, topicUrl } from './topics.ts'
import { CHECKS } from './index.ts'
import { coverageOf } from './sentences/registries.ts'
import { EXTRACTED_REVISIONS, loadSentences } from './sentences/data.ts'
import { REASONS, type ReasonKey } from './sentences/reasons.ts'
import { CONTENT_TYPE_GATES, FIELD_GATES, RELAXATIONS, REQUIRED_GATES } from './shapes.ts'
import { breachStatus, type CheckDef, type Rule } from './types.ts'

const OUTCOME: Record<string, string> = { fail: 'fail', warn: 'warn', skip: 'information' }

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

function revisions(rule: Rule): string {
  if (rule.until === rule.from) return rule.from
  return rule.until ? `${rule.from} – ${rule.until}` : `${rule.from} on`
}

/** The newest revision a rule is stated in, whose page the row links to. */
function newest(rule: Rule): Revision {
  if (rule.until) return rule.until
  return KNOWN_REVISIONS[0]
}

function ruleRow(def: CheckDef, rule: Rule, first: boolean): string {
  const status = OUTCOME[breachStatus(rule.keyword, def.scope)] ?? 'information'
  const revision = newest(rule)
  const url = topicUrl(revision, rule.topic)
  const label = topicLabel(revision, rule.topic).replace(/^MCP \S+ /, '')
  const where = url ? `[${label}](${url})` : label
  const when = rule.case ? ` (${rule.case})` : ''
  const check = first ? `\`${def.id}\`<br>${cell(def.title)}` : ''
  const how = first ? cell(def.how + (def.note ? ` *Note: ${def.note}*` : '')) : ''
  return `| ${check} | ${how} | ${revisions(rule)}${when} | ${rule.keyword} → ${status} | ${where}: “${cell(rule.quote)}” |`
}

function area(id: string): string {
  return id.split('/')[0] ?? id
}

export function renderChecksTable(): string {
  const lines = [
    '# Server checks',
    '',
    '<!-- Generated from conformance/src/server/registry by `npm run docs:checks`; do not edit by hand. -->',
    '',
    'Every check of `mcp-conformance server`, the sentence of the spec it enforces in each revision, and',
    'what a breach of that sentence is reported as. The status follows the sentence’s keyword and',
    'nothing else: **MUST**, **MUST NOT** and **SCHEMA** (a field or type the revision’s `schema.ts`',
    'requires) give `fail`; **SHOULD** and **SHOULD NOT** give `warn`; **NONE** (the spec describes',
    'the behaviour without requiring it: no keyword, or only MAY) gives information: a `skip` whose',
    'message starts with “Information”. A check whose rule is not part of the negotiated revision is',
    'skipped with the revision it arrived in; a case of a check (the name in brackets) with no',
    'sentence in the negotiated revision is information too, never the main sentence’s keyword. The',
    'keyword recorded for each sentence is the strongest RFC 2119 keyword the sentence itself states',
    '(a test checks every rule). Checks in the `bridge` area are about what a client like ours (the',
    'mcp-bridge plugin) makes of the server: their sentences are the plugin’s own design rules, not',
    'the spec’s (keyword **BRIDGE**), and they never go above `warn`, so they never change the exit',
    'code. A request that gets no response at all breaks the JSON-RPC rule marked `(reply)`.',
    '',
    'A check whose prerequisite failed (for example everything that needs tools/list, when tools/list',
    'failed) is a `skip` whose message starts “Not testable:” and names the check that reports the',
    'failure, so one fault is reported once. That holds only when the named check does report a',
    '`fail` or `warn` in the same run; where no other check carries the failure, the check reports it',
    'itself, at most at its own keyword (a SHOULD check warns, never fails).',
    '',
    'Results and notifications are validated with the zod schemas of the MCP TypeScript SDK',
    '(`@modelcontextprotocol/sdk`), which describe its latest revision; [Result shapes by revision](#result-shapes-by-revision)',
    'lists how the kit makes them say what the negotiated revision says. A schema violation is a',
    '`fail` (keyword SCHEMA) whose message names the path and shows the value found there.',
    '',
  ]
  let current = ''
  for (const def of CHECKS) {
    if (area(def.id) !== current) {
      current = area(def.id)
      lines.push(`## ${current}`, '', '| check | what the kit does | revisions | keyword → breach | the sentence |', '| --- | --- | --- | --- | --- |')
    }
    def.rules.forEach((rule, i) => lines.push(ruleRow(def, rule, i === 0)))
    const next = CHECKS[CHECKS.indexOf(def) + 1]
    if (!next || area(next.id) !== current) lines.push('')
  }
  lines.push(...modernChecks(), ...shapeGates(), ...coverageTable())
  return `${lines.join('\n').trimEnd()}\n`
}

/** The checks of a server that speaks only modern revisions (../modern/registry.ts). */
function modernChecks(): string[] {
  const revision = LATEST_MODERN_REVISION
  const rows = MODERN_CHECKS.flatMap((def) => {
    const check = `\`${def.id}\`<br>${cell(def.title)}`
    const how = cell(def.how + (def.note ? ` *Note: ${def.note}*` : ''))
    if (def.rules.length === 0) return [`| ${check} | ${how} | ${revision} | none → skip | no sentence: it names what the kit does not judge yet |`]
    return def.rules.map((rule, i) => {
      const status = OUTCOME[breachStatus(rule.keyword, 'server')] ?? 'information'
      const ref = citeModern(rule, revision)
      const label = ref.ref.replace(/^MCP \S+ /, '').replace(/: [^:]+$/, '')
      const when = rule.case ? ` (${rule.case})` : ''
      return `| ${i === 0 ? check : ''} | ${i === 0 ? how : ''} | ${revision}${when} | ${rule.keyword} → ${status} | [${label}](${ref.url}): “${cell(rule.quote)}” |`
    })
  })
  return [
    `## modern (${revision})`,
    '',
    'A server that refuses the legacy `initialize` the run opens with, and answers a `server/discover`',
    'probe (or that refusal) the way 2026-07-28 defines for a modern server (a DiscoverResult, or an',
    'UnsupportedProtocolVersionError whose `supported` lists only modern revisions), is judged by these',
    'checks instead of the ones above; its refusal of `initialize` is then a skip, never a fail.',
    '',
    '| check | what the kit does | revisions | keyword → breach | the sentence |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ]
}

/** The revision gates of the SDK's schemas (registry/shapes.ts). */
function shapeGates(): string[] {
  const fields = FIELD_GATES.map((g) => `| \`${g.type}.${g.field}\` | ${g.from ? `${g.from} on` : 'no revision the kit judges (the SDK follows the draft)'} | not judged${g.from ? ` before ${g.from}` : ''}: left out before validation |`)
  const types = CONTENT_TYPE_GATES.map((g) => `| content \`type: "${g.value}"\` | ${g.from} on | before ${g.from}, a schema violation (the revision’s ContentBlock union has no such member) |`)
  const required = REQUIRED_GATES.map((g) => `| \`${g.type}.${g.field}\` | ${g.until ? `${g.from} – ${g.until}` : `${g.from} on`} | required: ${cell(g.why)} |`)
  const relaxed = RELAXATIONS.map((r) => `| \`${r.at.join('.')}\` (${r.code}) | every revision | not a verdict: ${cell(r.why)} |`)
  return [
    '## Result shapes by revision',
    '',
    'What differs between the SDK’s schemas and the revision the server negotiated, and what the kit',
    'does about it. A field a revision does not define is never judged in that revision, so an older',
    'run neither demands nor fails a newer field.',
    '',
    '| field or value | defined in | in a run of another revision |',
    '| --- | --- | --- |',
    ...fields,
    ...types,
    ...required,
    ...relaxed,
    '',
  ]
}

/** How much of each revision's server-binding keyword sentences the checks judge (sentences/). */
function coverageTable(): string[] {
  const files = EXTRACTED_REVISIONS.map(loadSentences)
  const judgeable = (Object.keys(REASONS) as ReasonKey[]).filter((key) => REASONS[key].kind === 'not judgeable')
  const rows = files.map((file) => {
    const c = coverageOf(file)
    const out = judgeable.map((key) => c.notJudgeable[key] ?? 0)
    // An unreviewed sentence may be judgeable: it counts against the share until it is classified.
    const reachable = c.judged + c.notYet + c.unreviewed
    const percent = reachable === 0 ? '–' : `${Math.round((100 * c.judged) / reachable)} %`
    return `| ${file.revision} | ${c.sentences} | ${c.judged} | ${out.join(' | ')} | ${c.notYet} | ${c.unreviewed} | ${c.unaccounted.length} | ${percent} |`
  })
  const commits = [...new Set(files.map((file) => file.source.commit))]
  return [
    '## Coverage of the spec’s sentences',
    '',
    'Every sentence of the server-facing pages (base protocol, lifecycle, transports, authorization, the',
    'utilities, tools, resources, prompts, completion, logging) that states MUST, MUST NOT, SHOULD,',
    'SHOULD NOT, REQUIRED, SHALL or RECOMMENDED and binds the server (or both parties, implementations,',
    'receivers), extracted by `scripts/extract-spec-sentences.mjs` from the specification’s repository',
    `(${commits.map((c) => `commit \`${c.slice(0, 12)}\``).join(', ')}) into \`conformance/src/server/registry/sentences/\`. A sentence is`,
    '*judged* when a check’s rule quotes it (or the sentence names the check); otherwise it carries one',
    'reason, below. *Judged* counts judged sentences among those that can be judged from outside (judged',
    'plus not yet judged) and those not yet reviewed. 2026-07-28 is judged by the modern checks above;',
    'its tasks moved to an extension specified outside the specification’s repository. A test fails when a sentence is unaccounted for, or a rule quotes a keyword',
    'sentence the extract does not hold.',
    '',
    `| revision | sentences | judged | ${judgeable.map((key) => `not judgeable: ${key}`).join(' | ')} | not yet judged | not yet reviewed | unaccounted | judged of judgeable |`,
    `| --- | --- | --- | ${judgeable.map(() => '---').join(' | ')} | --- | --- | --- | --- |`,
    ...rows,
    '',
    '| reason | what it means |',
    '| --- | --- |',
    ...(Object.keys(REASONS) as ReasonKey[]).map((key) => `| ${key} | ${REASONS[key].kind}: ${cell(REASONS[key].text)} |`),
    '',
  ]
}
