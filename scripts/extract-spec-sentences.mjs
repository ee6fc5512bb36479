// Extracts every RFC 2119 keyword sentence of the server-facing pages of each revision from a
// local checkout of github.com/modelcontextprotocol/modelcontextprotocol, and writes
// conformance/src/server/registry/sentences/<revision>.json.
//
//   node scripts/extract-spec-sentences.mjs <checkout> [revision …]
//
// The checkout is a directory holding docs/specification/<revision>/…; its commit is read with
// git when it is a work tree, else from SPEC_COMMIT. Re-running keeps the hand-made part of each
// sentence (`checks`, `reason`) whenever the same page and wording (the same occurrence of it on
// the page) come out again, so only new or reworded sentences need classifying (a test fails
// until they are).
//
// Which sentences bind the server (`binds`) is decided by the rule in `partiesOf` below, and
// the reviewed exceptions in sentences/overrides.json (one entry per reason); nothing else.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const OUT = new URL('../conformance/src/server/registry/sentences/', import.meta.url)
const REPO = 'modelcontextprotocol/modelcontextprotocol'

/** The server-facing pages of each revision (README of the issue: basic, utilities, server). */
const LEGACY_PAGES = [
  'basic/index',
  'basic/lifecycle',
  'basic/transports',
  'basic/authorization',
  'basic/utilities/ping',
  'basic/utilities/cancellation',
  'basic/utilities/progress',
  'basic/utilities/tasks',
  'server/index',
  'server/tools',
  'server/resources',
  'server/prompts',
  'server/utilities/completion',
  'server/utilities/logging',
  'server/utilities/pagination',
]
/**
 * 2026-07-28 reorganised them: versioning and server/discover replace the lifecycle, each
 * transport has its page, cancellation and progress are patterns, and ping is gone. Tasks left
 * the spec for an extension whose specification lives in another repository (ext-tasks).
 */
const MODERN_PAGES = [
  'basic/index',
  'basic/versioning',
  'basic/transports/index',
  'basic/transports/stdio',
  'basic/transports/streamable-http',
  'basic/authorization/index',
  'basic/patterns/cancellation',
  'basic/patterns/progress',
  'basic/patterns/subscriptions',
  'basic/patterns/mrtr',
  'server/index',
  'server/discover',
  'server/tools',
  'server/resources',
  'server/prompts',
  'server/utilities/caching',
  'server/utilities/completion',
  'server/utilities/logging',
  'server/utilities/pagination',
]
const PAGES = {
  '2024-11-05': ['basic/messages', ...LEGACY_PAGES],
  '2025-03-26': LEGACY_PAGES,
  '2025-06-18': LEGACY_PAGES,
  '2025-11-25': LEGACY_PAGES,
  '2026-07-28': MODERN_PAGES,
}
const DEFAULT_REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']

// Longest first, so MUST NOT is not read as MUST. RECOMMENDED is SHOULD by RFC 2119 §3.
const KEYWORDS = /\b(MUST NOT|MUST|SHALL NOT|SHALL|REQUIRED|SHOULD NOT|SHOULD|NOT RECOMMENDED|RECOMMENDED)\b/g
const STRENGTH = ['MUST NOT', 'MUST', 'SHALL NOT', 'SHALL', 'REQUIRED', 'SHOULD NOT', 'SHOULD', 'NOT RECOMMENDED', 'RECOMMENDED']

// Who a clause names, tried in this order at each position (the first match wins there).
const PARTIES = [
  ['both', /\b(?:(?:mcp )?clients? and (?:mcp )?servers?|(?:mcp )?servers? and (?:mcp )?clients?|servers? and clients?|both parties|either party|parties|implementations?|receivers?|recipients?|senders?|requestors?|peers?|sdks?)\b/gi],
  ['other', /\b(?:authorization servers?|identity providers?|user agents?|browsers?|users?)\b/gi],
  ['server', /\b(?:mcp servers?|resource servers?|servers?)\b/gi],
  ['client', /\b(?:mcp clients?|clients?|hosts?|applications?)\b/gi],
]

/**
 * The documented rule: for each keyword in the sentence, the party it binds is the first party
 * named in the clause (text between commas, semicolons, colons) just before the keyword, walking
 * back clause by clause (the lead of a list counting as the first clause) until one names a
 * party. A sentence binds the server when one of its keywords binds the server or both parties
 * (both parties, implementations, receivers, senders, requestors). A keyword with no party named
 * before it binds what the page is about: the server on server/* pages, both parties on basic/*
 * pages except authorization, where it is left unbound (most unnamed rules there are the
 * authorization server's). overrides.json corrects the sentences this rule reads wrongly.
 */
function partiesOf(text, page) {
  const parties = []
  for (const match of text.matchAll(KEYWORDS)) {
    const clauses = text.slice(0, match.index).split(/[,;:]/).reverse()
    let found
    for (const clause of clauses) {
      found = firstParty(clause)
      if (found) break
    }
    parties.push(found ?? pageDefault(page))
  }
  return [...new Set(parties)]
}

function firstParty(clause) {
  let best
  for (const [party, pattern] of PARTIES) {
    for (const m of clause.matchAll(pattern)) {
      if (!best || m.index < best.index) best = { index: m.index, party }
      break
    }
  }
  return best?.party
}

/** The authorization page, whether a revision keeps it in one file or in a directory of them. */
const AUTHORIZATION_PAGE = /^basic\/authorization(?:\/index)?$/

function pageDefault(page) {
  if (page.startsWith('server/')) return 'server'
  if (AUTHORIZATION_PAGE.test(page)) return 'unnamed'
  return 'both'
}

/** Markup removed: emphasis, code ticks, links, HTML tags and entities; whitespace collapsed. */
export function plain(text) {
  return text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/(^|[^\w*])\*([^*\s][^*]*)\*(?=[^\w*]|$)/g, '$1$2')
    .replace(/(^|[^\w\\])_([^_\s][^_]*)_(?=[^\w]|$)/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+.!|-])/g, '$1')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The anchor the published site derives from a heading. */
export function slug(heading) {
  return plain(heading)
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ /g, '-')
}

const ABBREVIATIONS = /(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bNo)\.$/

/** Sentences of a paragraph: split after . ! ? before a capital, a quote or a code span. */
export function sentences(text) {
  const out = []
  let start = 0
  const boundary = /[.!?](?=\s+["“(`A-Z0-9])/g
  for (const m of text.matchAll(boundary)) {
    const end = m.index + 1
    if (ABBREVIATIONS.test(text.slice(start, end))) continue
    out.push(text.slice(start, end).trim())
    start = end
  }
  out.push(text.slice(start).trim())
  return out.filter(Boolean)
}

/**
 * The page as blocks: headings (with their anchor), paragraphs and list items (with their
 * depth); code fences, frontmatter, JSX-only lines and images are left out.
 */
function blocks(source) {
  const lines = source.replace(/\r\n/g, '\n').split('\n')
  const out = []
  let para
  let fence = false
  let i = 0
  if (lines[0] === '---') {
    i = lines.indexOf('---', 1) + 1
  }
  const flush = () => {
    if (para) out.push(para)
    para = undefined
  }
  for (; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s*(```|~~~)/.test(line)) {
      flush()
      // What follows a code sample does not hang from the sentence before it.
      if (!fence) out.push({ kind: 'break' })
      fence = !fence
      continue
    }
    if (fence) continue
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading) {
      flush()
      out.push({ kind: 'heading', level: heading[1].length, anchor: slug(heading[2]) })
      continue
    }
    if (!line.trim() || /^\s*<\/?[A-Za-z][^>]*>\s*$/.test(line)) {
      flush()
      continue
    }
    if (/^\s*\|/.test(line)) {
      flush()
      if (/^\s*\|[\s|:-]+\|\s*$/.test(line)) continue
      for (const cellText of line.split('|').slice(1, -1)) out.push({ kind: 'para', text: cellText, table: true })
      continue
    }
    const item = /^(\s*)(?:[-*+]|\d+\.)\s+(.*)$/.exec(line)
    if (item) {
      flush()
      para = { kind: 'item', depth: Math.floor(item[1].replace(/\t/g, '  ').length / 2), text: item[2] }
      continue
    }
    const quoted = line.replace(/^\s*>\s?/, '')
    if (para) para.text += ` ${quoted}`
    else para = { kind: 'para', text: quoted }
  }
  flush()
  return out
}

/**
 * Keyword units of a page. A paragraph gives its sentences; a list item gives its sentences,
 * read after the lead it hangs from (the last sentence of the paragraph or item above, when that
 * ends with a colon): when the lead itself carries the keyword ("Servers MUST:"), each item is
 * one unit "lead item", so every obligation of such a list is accounted for on its own.
 */
export function units(source, page) {
  const out = []
  let anchor = ''
  const leads = [] // leads[depth] = { text, keyword }
  let lastText = ''
  for (const block of blocks(source)) {
    if (block.kind === 'break') {
      leads.length = 0
      lastText = ''
      continue
    }
    if (block.kind === 'heading') {
      anchor = block.level === 1 ? '' : block.anchor
      leads.length = 0
      lastText = ''
      continue
    }
    const text = plain(block.text)
    if (!text) continue
    const depth = block.kind === 'item' ? block.depth : -1
    if (block.kind === 'para') leads.length = 0
    const lead = depth >= 0 ? (leads[depth] ?? (depth === 0 ? leadOf(lastText) : undefined)) : undefined
    const parts = sentences(text)
    for (const sentence of parts) {
      const withLead = lead?.keyword ? `${lead.text} ${sentence}` : sentence
      if (!KEYWORDS.test(withLead)) continue
      KEYWORDS.lastIndex = 0
      out.push({ anchor, text: withLead, ...(lead && !lead.keyword ? { lead: lead.text } : {}) })
    }
    KEYWORDS.lastIndex = 0
    const last = parts.at(-1) ?? ''
    const tail = lead?.keyword ? `${lead.text} ${last}` : last
    if (depth >= 0) {
      leads.length = depth + 1
      // A nested item reads after its parent item, colon or not ("inputSchema: …" → "MUST be …").
      leads[depth + 1] = leadOf(tail) ?? { text: tail, keyword: false }
    } else {
      lastText = last
    }
  }
  // A keyword lead alone ("Servers MUST:") is read through its items, one unit each.
  const kept = out.filter((unit, i) => !(unit.text.endsWith(':') && out[i + 1]?.text.startsWith(`${unit.text} `)))
  return kept.map((unit) => ({ ...unit, parties: partiesOf(`${unit.lead ? `${unit.lead} ` : ''}${unit.text}`, page) }))
}

function leadOf(text) {
  if (!text || !/:$/.test(text)) return undefined
  const keyword = new RegExp(KEYWORDS.source).test(text)
  return { text, keyword }
}

function strongest(text) {
  const found = [...text.matchAll(KEYWORDS)].map((m) => m[1])
  return STRENGTH.find((k) => found.includes(k))
}

function commitOf(checkout) {
  if (process.env.SPEC_COMMIT) return process.env.SPEC_COMMIT
  try {
    return execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    throw new Error(`${checkout} is not a git work tree: set SPEC_COMMIT to the commit it was taken from`)
  }
}

/** The override that reads a sentence, if any: its revision, page and start are all listed. */
function overrideOf(overrides, revision, page, text) {
  return overrides.find((o) => o.revisions.includes(revision) && o.pages.includes(page) && o.startsWith.some((start) => text.startsWith(start)))
}

/**
 * Hand-kept fields are keyed by page, wording and which occurrence of that wording on the page
 * it is, so a wording a page repeats keeps each occurrence's own `checks` and `reason`.
 */
function keyed(sentences) {
  const seen = new Map()
  return sentences.map((s) => {
    const base = `${s.page}\n${s.text}`
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    return [`${base}\n${n}`, s]
  })
}

function extract(checkout, revision, commit, overrides, previous, used) {
  const kept = new Map(keyed(previous?.sentences ?? []))
  const list = []
  for (const page of PAGES[revision] ?? LEGACY_PAGES) {
    const file = join(checkout, 'docs/specification', revision, `${page}.mdx`)
    if (!existsSync(file)) continue
    const counts = new Map()
    for (const unit of units(readFileSync(file, 'utf8'), page)) {
      const n = (counts.get(unit.anchor) ?? 0) + 1
      counts.set(unit.anchor, n)
      const id = `${page}#${unit.anchor}/${n}`
      const byRule = unit.parties.some((p) => p === 'server' || p === 'both')
      const override = overrideOf(overrides, revision, page, unit.text)
      if (override) used.set(override, (used.get(override) ?? false) || override.binds !== byRule)
      const binds = override ? override.binds : byRule
      const entry = { id, page, anchor: unit.anchor, keyword: strongest(unit.text), parties: unit.parties, binds, ...(unit.lead ? { lead: unit.lead } : {}), text: unit.text }
      if (override) entry.override = override.why
      list.push(entry)
    }
  }
  for (const [key, entry] of keyed(list)) {
    const old = kept.get(key)
    if (entry.binds && old?.checks) entry.checks = old.checks
    if (entry.binds && old?.reason) entry.reason = old.reason
  }
  return {
    revision,
    source: { repository: `https://github.com/${REPO}`, commit, path: `docs/specification/${revision}/` },
    note: 'Generated by scripts/extract-spec-sentences.mjs; checks and reason are kept by hand (see sentences/README.md).',
    sentences: list,
  }
}

function main() {
  const [checkout, ...asked] = process.argv.slice(2)
  if (!checkout) {
    process.stderr.write('usage: node scripts/extract-spec-sentences.mjs <checkout of modelcontextprotocol/modelcontextprotocol> [revision …]\n')
    process.exit(2)
  }
  if (!existsSync(join(checkout, 'docs/specification'))) {
    process.stderr.write(`${checkout}: no docs/specification here; pass the root of a checkout of ${REPO}\n`)
    process.exit(2)
  }
  const commit = commitOf(checkout)
  const overrides = JSON.parse(readFileSync(new URL('overrides.json', OUT), 'utf8')).overrides
  // Override → whether it changed a reading; one that never did is stale or redundant.
  const used = new Map()
  const revisions = asked.length ? asked : DEFAULT_REVISIONS
  for (const revision of revisions) {
    const target = new URL(`${revision}.json`, OUT)
    const previous = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : undefined
    const data = extract(checkout, revision, commit, overrides, previous, used)
    writeFileSync(target, `${JSON.stringify(data, null, 2)}\n`)
    const bound = data.sentences.filter((s) => s.binds).length
    process.stderr.write(`${revision}: ${data.sentences.length} keyword sentences, ${bound} bind the server\n`)
  }
  for (const o of overrides.filter((o) => o.revisions.some((r) => revisions.includes(r)) && !used.get(o))) {
    const what = used.has(o) ? 'reads its sentences as the party rule already does' : 'matches no sentence'
    process.stderr.write(`overrides.json: "${o.startsWith[0]}" (${o.pages.join(', ')}) ${what}; drop it\n`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main()
