import { resolve } from 'node:path'
import type { ScalarTag } from 'yaml'
import { isPlainRecord } from '@mcp-bridge/process'

/**
 * cordis.yml values that depend on the host: environment variables and paths relative to the file.
 * The YAML tags only record what was written; `resolveReferences` substitutes later, per entry, so a
 * missing variable is reported against the entry and field that uses it. Nothing is ever evaluated.
 */

/** `!env NAME` or `!env NAME:-default`. */
export class EnvTag {
  constructor(readonly spec: string) {}
}

/** `!path relative/to/the/yaml/file`. */
export class PathTag {
  constructor(readonly path: string) {}
}

/** `!!js ...` from cordis 3 configs: recognised only to refuse it with a useful message. */
export class CodeTag {
  constructor(readonly source: string) {}
}

export const referenceTags: ScalarTag[] = [
  { tag: '!env', resolve: (value: string) => new EnvTag(value.trim()) },
  { tag: '!path', resolve: (value: string) => new PathTag(value) },
  { tag: 'tag:yaml.org,2002:js', resolve: (value: string) => new CodeTag(value) },
]

export interface ReferenceContext {
  env: Readonly<Record<string, string | undefined>>
  /** Absolute directory of the YAML file. */
  baseDir: string
}

export interface ReferenceIssue {
  field: string
  message: string
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/
const REFERENCE = /^([^:]*)(?::-(.*))?$/s

/** Pure: returns `value` with every reference substituted, and one issue per unresolvable one. */
export function resolveReferences(value: unknown, context: ReferenceContext, field: string): { value: unknown; issues: ReferenceIssue[] } {
  const issues: ReferenceIssue[] = []
  const walk = (node: unknown, path: string): unknown => {
    if (node instanceof EnvTag) return lookup(node.spec, `!env ${node.spec}`, path)
    if (node instanceof PathTag) return resolve(context.baseDir, node.path)
    if (node instanceof CodeTag) {
      issues.push({
        field: path,
        message: '!!js is not supported: cordis.yml values are never evaluated as code; reference environment variables with !env NAME or "${NAME}"',
      })
      return undefined
    }
    if (typeof node === 'string') return interpolate(node, path)
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${path}[${index}]`))
    if (isPlainRecord(node)) {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, `${path}.${key}`)]))
    }
    return node
  }

  const lookup = (spec: string, written: string, path: string): string | undefined => {
    const [, name = '', fallback] = REFERENCE.exec(spec) ?? []
    if (!VARIABLE.test(name)) {
      issues.push({ field: path, message: `${written} is not a valid reference: write NAME or NAME:-default (NAME is letters, digits and _)` })
      return undefined
    }
    const found = context.env[name]
    if (fallback !== undefined) return found ? found : fallback
    if (found === undefined) {
      issues.push({ field: path, message: `environment variable ${name} is not set (referenced by ${written}); set it, or give a default with ${name}:-default` })
    }
    return found
  }

  const interpolate = (text: string, path: string): string =>
    // `$${` is a literal `${`; a `${` that never closes is an error rather than silently kept.
    text.replace(/\$\$\{|\$\{([^}]*)\}|\$\{/g, (match, spec: string | undefined) => {
      if (match === '$${') return '${'
      if (spec === undefined) {
        issues.push({ field: path, message: `"\${" is not closed: write \${NAME}, or $\${ for a literal "\${"` })
        return match
      }
      return lookup(spec, match, path) ?? ''
    })

  return { value: walk(value, field), issues }
}
