/**
 * Pure: what a client like ours (the mcp-bridge plugin) makes of the listed tools — the public
 * name each raw name gets, which ones are rewritten, which are left out, and what each definition
 * costs in every model request.
 */
import { redactSecrets } from '@mcp-bridge/process'
import { Config, declaresToolTasks, MAX_PUBLIC_NAME_LENGTH, planTools, publicToolName } from '@mcp-bridge/plugin/rules'
import type { CheckResult } from '../../model.ts'
import { count, judge, list, show } from '../check.ts'
import { PROJECTION, SCHEMA_SIZE } from '../registry/bridge.ts'

type Tool = Record<string, unknown>

export interface ProjectionRow {
  raw: string
  public: string
  /** verbatim, or why the bridge had to rewrite the name (a hash suffix is then appended). */
  change: 'verbatim' | 'sanitised' | 'shortened' | 'sanitised+shortened'
  bridged: boolean
  reason?: string
}

/** The plugin's defaults: the projection is what an instance configured with no limits would do. */
const BRIDGE_LIMITS = Config({ transport: 'stdio', serverName: 'kit', command: 'node' }).limits
/** Per-tool and whole-list budgets for the size advisory (about 4 characters per token). */
export const TOOL_CHARS_WARN = 8_192
export const TOTAL_CHARS_WARN = 65_536
const PREFIX_CHARS = 'mcp__'.length + '__'.length

/** The serverName a bridge would plausibly be configured with: serverInfo.name made valid. */
export function defaultServerName(serverInfoName: unknown): string {
  // Redacted first: a key in serverInfo.name must not become part of every public tool name.
  const raw = typeof serverInfoName === 'string' ? redactSecrets(serverInfoName.slice(0, 4096)) : ''
  const cleaned = raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32)
  return cleaned || 'server'
}

/** `serverSupportsTasks`: the server declared tasks.requests.tools.call, so task-only tools are bridged as tasks. */
export function projectTools(serverName: string, tools: Tool[], serverSupportsTasks = false): ProjectionRow[] {
  return tools.map((tool) => {
    const raw = tool.name as string
    const sanitised = /[^A-Za-z0-9_-]/.test(serverName + raw)
    const shortened = PREFIX_CHARS + serverName.length + raw.length > MAX_PUBLIC_NAME_LENGTH
    const change = sanitised && shortened ? 'sanitised+shortened' : sanitised ? 'sanitised' : shortened ? 'shortened' : 'verbatim'
    const reason = leftOutBecause(serverName, tool, serverSupportsTasks)
    return { raw, public: publicToolName(serverName, raw), change, bridged: reason === undefined, ...(reason ? { reason } : {}) }
  })
}

/** The plugin's own discovery rule, one tool at a time (a whole list may be refused; judgeProjection says so apart). */
function leftOutBecause(serverName: string, tool: Tool, serverSupportsTasks: boolean): string | undefined {
  try {
    return planTools(serverName, [tool], BRIDGE_LIMITS, { serverSupportsTasks, preferTaskCalls: false }).quarantined[0]?.reason
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

export function judgeProjection(serverName: string, tools: Tool[], version: string, capabilities: Record<string, unknown> = {}): CheckResult {
  const j = judge(PROJECTION, version)
  if (tools.length === 0) return j.skip('tools/list returned no tools; nothing to project')
  const rows = projectTools(serverName, tools, declaresToolTasks(capabilities))
  const byPublic = new Map<string, string[]>()
  for (const row of rows) byPublic.set(row.public, [...(byPublic.get(row.public) ?? []), row.raw])
  const collisions = [...byPublic].filter(([, raws]) => raws.length > 1).map(([publicName, raws]) => ({ public: publicName, raw: raws }))
  const renamed = rows.filter((r) => r.change !== 'verbatim')
  const leftOut = rows.filter((r) => !r.bridged)
  const details = { serverName, rows, collisions }
  const summary = `${count(rows.length, 'tool')} as server "${serverName}": ${rows.length - renamed.length} verbatim, ${renamed.length} rewritten with a hash suffix, ${leftOut.length} left out`
  if (collisions.length) {
    const text = collisions.map((c) => `${c.raw.map((r) => show(r, 30)).join(' and ')} → ${c.public}`)
    // The plugin refuses such a list outright rather than guess which tool a name means.
    return j.breach(`${summary}; colliding: ${list(text, 3)} (a client like ours refuses the whole list)`, { details })
  }
  const notes = [
    renamed.length ? `rewritten: ${list(renamed.map((r) => `${show(r.raw, 30)} → ${r.public}`), 3)}` : '',
    leftOut.length ? `left out: ${list(leftOut.map((r) => `${show(r.raw, 30)} (${r.reason ?? ''})`), 3)}` : '',
  ].filter(Boolean)
  return j.pass([summary, ...notes].join('; '), { details })
}

/** What one tool definition costs: the part a client sends to the model on every request. */
export function definitionChars(tool: Tool): number {
  return JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }).length
}

export function judgeSchemaSize(tools: Tool[], version: string): CheckResult {
  const j = judge(SCHEMA_SIZE, version)
  if (tools.length === 0) return j.skip('tools/list returned no tools; nothing to measure')
  const sizes = tools.map((tool) => ({ tool: tool.name as string, chars: definitionChars(tool) })).sort((a, b) => b.chars - a.chars)
  const total = sizes.reduce((sum, s) => sum + s.chars, 0)
  const tokens = (chars: number) => Math.ceil(chars / 4)
  const rows = sizes.slice(0, 20).map((s) => ({ ...s, approxTokens: tokens(s.chars) }))
  const details = { totalChars: total, approxTotalTokens: tokens(total), largest: rows, thresholds: { perTool: TOOL_CHARS_WARN, total: TOTAL_CHARS_WARN } }
  const big = sizes.filter((s) => s.chars > TOOL_CHARS_WARN)
  const summary = `${count(tools.length, 'definition')}, ${total} characters (~${tokens(total)} tokens) per request`
  if (big.length || total > TOTAL_CHARS_WARN) {
    const parts = [big.length ? `over ${TOOL_CHARS_WARN}: ${list(big.map((s) => `${show(s.tool, 30)} ${s.chars}`), 3)}` : '', total > TOTAL_CHARS_WARN ? `total over ${TOTAL_CHARS_WARN}` : '']
    return j.breach(`${summary}; ${parts.filter(Boolean).join('; ')}`, { details })
  }
  const largest = sizes[0]
  return j.pass(`${summary}; largest ${show(largest?.tool, 30)} ${largest?.chars ?? 0}`, { details })
}
