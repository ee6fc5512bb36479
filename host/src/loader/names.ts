import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The bridge's package name; `mcp-client` (its Cordis plugin name) is accepted as an alias. */
export const BRIDGE_PACKAGE = '@mcp-bridge/plugin'
export const ALIASES: Readonly<Record<string, string>> = { 'mcp-client': BRIDGE_PACKAGE }

/** Names users may reach for to load the `tools` service, which the host always provides itself. */
const HOST_SERVICES = new Set(['tools', 'ToolRegistry', '@mcp-bridge/plugin/tools'])

export type PluginKey = { kind: 'builtin' | 'package' | 'path'; key: string } | { kind: 'error'; message: string }

/**
 * Pure: the identity of the plugin an entry names. Paths are resolved against the YAML file's
 * directory (not the process cwd), so a config file means the same thing wherever it is run from.
 */
export function pluginKey(name: string, baseDir: string, builtins: ReadonlySet<string>): PluginKey {
  if (HOST_SERVICES.has(name)) {
    return { kind: 'error', message: `"${name}" is provided by the host itself: remove this entry (every entry can use the tools service)` }
  }
  const canonical = ALIASES[name] ?? name
  if (builtins.has(canonical)) return { kind: 'builtin', key: canonical }
  if (canonical !== name) return { kind: 'package', key: canonical }
  if (name.startsWith('file:')) {
    try {
      return { kind: 'path', key: fileURLToPath(name) }
    } catch {
      return { kind: 'error', message: `"${name}" is not a valid file URL` }
    }
  }
  if (name.startsWith('./') || name.startsWith('../') || isAbsolute(name)) return { kind: 'path', key: resolve(baseDir, name) }
  if (/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w.-]+)*$/i.test(name)) return { kind: 'package', key: name }
  return {
    kind: 'error',
    message: `"${name}" is neither a package name nor a path: write a package (e.g. "${BRIDGE_PACKAGE}") or a path starting with ./ relative to the YAML file`,
  }
}
