import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// No import circles in any package's src: a module and the modules it imports form a tree that a
// reader can take one file at a time. Type-only imports count (they tie the files together for a
// reader just the same), and so do dynamic imports and re-exports. A package is reached through
// its entries (`@mcp-bridge/<name>[/<subpath>]` is the source its package.json exports names).

const ROOT = resolve(import.meta.dirname, '../..')
const PACKAGES = ['process', 'plugin', 'host', 'fixtures-server', 'conformance']

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** Every module specifier a file names: static imports and re-exports (type-only included), dynamic imports. */
function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const found = [...code.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/g), ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)]
  return found.map((m) => m[1]!)
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  const workspace = /^@mcp-bridge\/([\w-]+)(\/[\w-]+)?$/.exec(specifier)
  if (workspace) {
    const manifest = join(ROOT, workspace[1]!, 'package.json')
    if (!existsSync(manifest)) return undefined
    const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { 'mcp-bridge-source'?: string }> }).exports ?? {}
    const source = exports[`.${workspace[2] ?? ''}`]?.['mcp-bridge-source']
    return source ? join(ROOT, workspace[1]!, source) : undefined
  }
  if (!specifier.startsWith('.')) return undefined
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  return undefined
}

/** The import graph's strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.map((file) => relative(ROOT, file)).sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

/**
 * Circles not yet untied, each with where it is being untied. The list may only shrink: an entry
 * that no longer exists fails the test, so it is removed the moment its circle is gone.
 */
const KNOWN: string[] = []

describe('the import graph', () => {
  it('has no circles in any package', () => {
    const graph = new Map<string, string[]>()
    for (const pkg of PACKAGES) {
      for (const file of sources(join(ROOT, pkg, 'src'))) {
        graph.set(file, specifiers(readFileSync(file, 'utf8')).flatMap((s) => resolveSpecifier(file, s) ?? []))
      }
    }
    expect(graph.size).toBeGreaterThan(100)
    const found = circles(graph).map((component) => component.join(' <-> '))
    expect(found.filter((circle) => !KNOWN.includes(circle))).toEqual([])
    expect(KNOWN.filter((circle) => !found.includes(circle))).toEqual([])
  })
})
