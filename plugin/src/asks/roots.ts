import Schema from 'schemastery'

/**
 * Roots (MCP 2025-11-25 client/roots): the directories a server may work in, from the
 * configuration only. The field group config-schema.ts spreads into every transport, the check
 * config.ts runs at load, and the answer to `roots/list`, however it arrives. Pure.
 */

export interface Root {
  uri: string
  name?: string
}

/** A server is told of a person's directories, not a filesystem index. */
export const MAX_ROOTS = 64

const RootSchema = Schema.object({
  uri: Schema.string().required().description('A file:// URI, for example "file:///home/me/project".'),
  name: (Schema.string() as Schema<string | undefined, string | undefined>).description('A name a server may show for it.'),
})

export const RootsFields = {
  roots: (Schema.array(RootSchema) as unknown as Schema<Root[] | undefined, Root[] | undefined>).description(
    'Directories the server may work in (file:// URIs), offered as the roots capability; empty: no roots capability is declared.',
  ),
}

/** The first root the spec does not allow, as the field and the fix; undefined when all are fine. */
export function rootsProblem(roots: readonly Root[] | undefined): { field: string; message: string } | undefined {
  if (roots === undefined) return undefined
  if (roots.length > MAX_ROOTS) return { field: 'roots', message: `lists ${roots.length} roots; at most ${MAX_ROOTS} are offered.` }
  for (const [index, root] of roots.entries()) {
    // "uri: Unique identifier for the root. This MUST be a file:// URI in the current specification."
    if (!isFileUri(root.uri)) return { field: `roots[${index}].uri`, message: 'must be an absolute file:// URI (for example "file:///home/me/project").' }
  }
  return undefined
}

function isFileUri(uri: string): boolean {
  if (!URL.canParse(uri)) return false
  const url = new URL(uri)
  return url.protocol === 'file:' && (url.host === '' || url.host === 'localhost') && url.pathname.startsWith('/') && !url.search && !url.hash
}

/** The `roots/list` result: what is configured, names only where given. */
export function listRoots(roots: readonly Root[]): { roots: Root[] } {
  return { roots: roots.map(({ uri, name }) => (name === undefined ? { uri } : { uri, name })) }
}
