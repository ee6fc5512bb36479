import { isAbsolute } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin } from 'cordis'
import { nearestWord } from '@mcp-bridge/process'
import { ALIASES, BRIDGE_PACKAGE } from './names.ts'

/** Imports a plugin the host knows by name. */
export type PluginSource = () => Promise<unknown>

/**
 * The plugins a host embeds, by the names entries use for them. The bridge itself is not among
 * them: `@mcp-bridge/plugin` resolves as a package (this package depends on it, so the name always
 * resolves), and the loader never imports the plugin's entry.
 */
export function embeddedPlugins(plugins: Readonly<Record<string, Plugin>> = {}): Map<string, PluginSource> {
  return new Map(Object.entries(plugins).map(([name, plugin]): [string, PluginSource] => [name, async () => plugin]))
}

export type Resolution = { ok: true; plugin: Plugin } | { ok: false; message: string }

/**
 * Imports the plugin behind an entry's key: a built-in, an absolute path, or a package name.
 * Packages resolve from this package's location, i.e. the host application's node_modules.
 */
export async function resolvePlugin(key: string, builtins: ReadonlyMap<string, PluginSource>): Promise<Resolution> {
  let loaded: unknown
  try {
    const builtin = builtins.get(key)
    loaded = builtin ? await builtin() : await import(isAbsolute(key) ? pathToFileURL(key).href : key)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // Only a missing plugin is "unknown"; a plugin whose own imports fail says so.
    const missing = (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${isAbsolute(key) ? key : packageName(key)}'`)
    if (!missing) return { ok: false, message: `plugin "${key}" failed to import: ${message}` }
    return {
      ok: false,
      message: isAbsolute(key)
        ? `unknown plugin: there is no file ${key}`
        : unknownPackage(key, builtins),
    }
  }
  const plugin = asPlugin(loaded)
  if (!plugin) return { ok: false, message: `"${key}" does not export a Cordis plugin (an apply function, a default export, or a function)` }
  return { ok: true, plugin }
}

/** Names the plugins an entry can use here, each once (a host may embed the bridge too), and the nearest one. */
function unknownPackage(key: string, builtins: ReadonlyMap<string, PluginSource>): string {
  const known = [...new Set([...builtins.keys(), BRIDGE_PACKAGE, ...Object.keys(ALIASES)])]
  const nearest = nearestWord(key, known)
  const suggestion = nearest ? `; did you mean "${nearest}"?` : ''
  return `unknown plugin "${key}": no such package is installed${suggestion} (known here: ${known.join(', ')}; or write a path starting with ./)`
}

function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/** An ES module namespace is a plugin when it exports `apply`; otherwise its default export may be one. */
function asPlugin(loaded: unknown): Plugin | undefined {
  if (typeof loaded === 'function') return loaded as Plugin
  if (typeof loaded !== 'object' || loaded === null) return undefined
  const module = loaded as { apply?: unknown; default?: unknown }
  if (typeof module.apply === 'function') return module as Plugin
  if (module.default !== undefined && module.default !== loaded) return asPlugin(module.default)
  return undefined
}
