/**
 * What a client like ours (the mcp-bridge plugin) makes of the listed tools. Not spec rules: their
 * sentences come from the plugin's design doc, so their keyword is BRIDGE (never MUST or SHOULD,
 * which would read as the spec's), and a breach is at most a warning: they never change the exit code.
 */
import { rule, type CheckDef } from './rules.ts'

export const PROJECTION: CheckDef = {
  id: 'bridge/projection',
  title: 'every tool gets a distinct public name in a client like ours',
  scope: 'bridge',
  how: 'the raw → public name table publicToolName produces (verbatim, sanitised or shortened with a hash; left out when task-only or when the schema is not an object); a collision warns: the plugin refuses the whole list',
  rules: [rule('2024-11-05', 'bridge', 'BRIDGE', 'Public names are mcp__<serverName>__<rawName>, rewritten with a hash suffix when needed; two tools that end up with one public name make the bridge refuse the list.')],
}

export const SCHEMA_SIZE: CheckDef = {
  id: 'bridge/schema-size',
  title: 'tool definitions stay within 8192 characters each and 65536 in total',
  scope: 'bridge',
  how: 'characters and approximate tokens of each definition (name, description, inputSchema), which a client resends with every model request',
  rules: [rule('2024-11-05', 'bridge', 'BRIDGE', 'Every tool definition is sent to the model with every request; a definition above 8192 characters, or a list above 65536, costs every turn.')],
}

/** In the order the docs list them. */
export const BRIDGE_CHECKS: CheckDef[] = [PROJECTION, SCHEMA_SIZE]
