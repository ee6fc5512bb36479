import { createRequire } from 'node:module'
import type * as Yaml from 'yaml'
import type { Node } from 'yaml'
import type { z } from 'zod'
import { BLOCK_TYPES } from './schema.ts'

/**
 * The YAML parser, loaded by the first file it reads: a fixture given its behaviour as --json (the
 * kit starts every stdio fixture so) never loads it, and it is a tenth of a fixture's start-up.
 * `require` because parsing is synchronous; Node resolves 'yaml' to the same CommonJS build either way.
 */
const yaml = (): typeof Yaml => (loadedYaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml)
let loadedYaml: typeof Yaml | undefined

/**
 * A file a person wrote (a fixture behaviour, a conformance scenario) that does not read or
 * validate, told in one line: the file and line, the place in the document, the problem and the
 * fix. `<file>:<line>: <place>: <problem>; <fix>` plus `(and N more: …)` when there are more.
 * The CLIs print it as is (exit 2); nothing here ever reaches a user as a stack trace.
 */
export class FileFormatError extends Error {
  override name = 'FileFormatError'
}

/** The document a YAML (or JSON) file holds, and where each of its places is. */
export interface YamlFile {
  value: unknown
  /** `<file>:<line>` of the deepest node on `path` that the file has (the parent of a missing key). */
  at(path: readonly PropertyKey[]): string
}

/**
 * Reads YAML text (JSON is YAML) as one document. `what` names the document for the fix
 * (`fixture behaviour`), `example` says how one starts. Throws FileFormatError.
 */
export function parseYamlFile(text: string, file: string, what: string, example: string): YamlFile {
  // Binary bytes decode to NUL or U+FFFD: YAML would read them as one long string and the
  // schema would then say "expected object", which tells nobody that the file is not text.
  // eslint-disable-next-line no-control-regex -- a NUL is what the check looks for
  const binary = text.search(/[\u0000\uFFFD]/)
  if (binary >= 0) throw new FileFormatError(`${file}:${lineAt(text, binary)}: not a text file (it holds binary bytes); give the ${what} as YAML or JSON text`)
  const { LineCounter, parseDocument } = yaml()
  const lines = new LineCounter()
  let document
  try {
    document = parseDocument(text, { lineCounter: lines, prettyErrors: false })
  } catch (error) {
    throw new FileFormatError(`${file}: invalid YAML: ${firstLine(error)}; simplify the document`)
  }
  const syntax = document.errors[0]
  if (syntax) {
    const { line, col } = lines.linePos(syntax.pos[0])
    const where = `${file}:${line}:${col}: invalid YAML`
    if (syntax.code === 'MULTIPLE_DOCS') throw new FileFormatError(`${where}: a second document starts here; keep one document in the file`)
    const reason = firstLine(syntax).replace(/ at line \d+, column \d+:?$/, '')
    if (/call stack/i.test(reason)) throw new FileFormatError(`${where}: nested too deeply to read; flatten the document`)
    throw new FileFormatError(`${where}: ${reason}; fix the syntax there`)
  }
  if (document.contents === null) throw new FileFormatError(`${file}: the file is empty; write the ${what} in it (${example})`)
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: 100 })
  } catch (error) {
    throw new FileFormatError(`${file}: invalid YAML: ${firstLine(error)}; simplify the document`)
  }
  return {
    value,
    at(path) {
      const offset = nodeOffset(document.contents as Node, path)
      return `${file}:${lines.linePos(offset).line}`
    },
  }
}

/** The line of `issues`, each problem at its place: `<at>: <place>: <problem>; <fix> (and N more: …)`. */
export function issuesLine(issues: readonly z.core.$ZodIssue[], at: (path: readonly PropertyKey[]) => string, basePath: readonly PropertyKey[] = []): string {
  // An unknown key first: a misspelt key is what also makes the key it meant read as missing.
  const problems = issues.flatMap((issue) => describeIssue(issue, basePath)).sort((a, b) => Number(b.problem === 'unknown key') - Number(a.problem === 'unknown key'))
  const [first, ...rest] = problems
  if (!first) return `${at(basePath)}: invalid`
  const more = rest.length ? ` (and ${rest.length} more: ${rest.slice(0, 3).map((p) => formatPath(p.path)).join(', ')}${rest.length > 3 ? ', …' : ''})` : ''
  return `${at(first.path)}: ${formatPath(first.path)}: ${first.problem}${first.fix ? `; ${first.fix}` : ''}${more}`
}

/**
 * `tools[2].result.content[0].type`, the way a reader finds it in the file. A key that is not a
 * plain word (an unknown key can be anything the file holds) is quoted as JSON, so that no line
 * break or control character in it can break the line.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else if (/^[\w$-]+$/.test(String(part))) out += out ? `.${String(part)}` : String(part)
    else out += `[${JSON.stringify(String(part))}]`
  }
  return out || '(root)'
}

interface Problem {
  path: PropertyKey[]
  problem: string
  /** Absent where the schema's own message says it ("give atLeast, atMost or both"). */
  fix?: string
}

function describeIssue(issue: z.core.$ZodIssue, basePath: readonly PropertyKey[]): Problem[] {
  const path = [...basePath, ...issue.path]
  switch (issue.code) {
    // One line per unknown key, with the key in the path.
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path: [...path, key], problem: 'unknown key', fix: 'remove it or correct its spelling' }))
    case 'invalid_type': {
      const text = issue.message.replace(/^Invalid input: /, '')
      if (/received undefined$/.test(text)) return [{ path, problem: `missing (${issue.expected} expected)`, fix: 'add it' }]
      return [{ path, problem: text, fix: `give ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected} there` }]
    }
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator === 'type') return [{ path, problem: 'unknown block type', fix: `use one of ${BLOCK_TYPES.join(', ')}` }]
      return [{ path, problem: issue.message.toLowerCase(), fix: 'give one of the shapes the format describes' }]
    case 'invalid_value':
      return [{ path, problem: issue.message.replace(/^Invalid option: /, ''), fix: 'use one of them' }]
    default:
      // The schema's own messages ("give atLeast, atMost or both") often say the fix already.
      return [{ path, problem: issue.message, ...(/\b(give|choose|use|set|add|remove|write)\b/.test(issue.message) ? {} : { fix: 'change the value' }) }]
  }
}

/** Where `path` is in the document: the key of the last pair found on it, or the deepest node. */
function nodeOffset(root: Node, path: readonly PropertyKey[]): number {
  const { isMap, isPair, isScalar, isSeq } = yaml()
  let node: unknown = root
  let offset = rangeStart(root)
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key))
      if (!pair) break
      offset = rangeStart(pair.key as Node) || offset
      node = pair.value
    } else if (isSeq(node) && typeof key === 'number' && node.items[key] !== undefined) {
      node = node.items[key]
      offset = rangeStart(node as Node) || offset
    } else break
  }
  return offset
}

function rangeStart(node: Node | null | undefined): number {
  return node?.range?.[0] ?? 0
}

function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim()
}
