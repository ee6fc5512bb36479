/**
 * Values for arguments the kit has to supply (prompt arguments, completion references), built
 * from their definitions: a completion the server itself offers when it declares completions,
 * else a value shaped by the argument's name and description. Pure apart from `complete`.
 */
import { isObject } from '../check.ts'
import type { CompletionTarget } from '../evaluate/features.ts'

type Prompt = Record<string, unknown>

export interface PromptArgument {
  name: string
  description?: string
  required: boolean
}

export function argumentsOf(prompt: Prompt): PromptArgument[] {
  if (!Array.isArray(prompt.arguments)) return []
  return prompt.arguments
    .filter((arg): arg is Record<string, unknown> => isObject(arg) && typeof arg.name === 'string')
    .map((arg) => ({ name: arg.name as string, required: arg.required === true, ...(typeof arg.description === 'string' ? { description: arg.description } : {}) }))
}

/** Prompts in the order the kit tries them: those needing no arguments first, then the listed order. */
export function promptsToTry(prompts: Prompt[]): Prompt[] {
  const needs = (p: Prompt) => argumentsOf(p).some((a) => a.required)
  return [...prompts.filter((p) => !needs(p)), ...prompts.filter(needs)]
}

/** Shapes a value from words in the argument's name and description; deterministic. */
const SHAPES: Array<[RegExp, string]> = [
  [/\b(url|uri|link|endpoint)\b|url$|uri$/i, 'https://example.com/'],
  [/e-?mail/i, 'user@example.com'],
  [/\b(date|day)\b|date$/i, '2025-01-01'],
  [/\b(time|timestamp)\b/i, '2025-01-01T00:00:00Z'],
  [/\b(bool|boolean|flag|enabled?|true|false)\b/i, 'true'],
  [/\b(number|count|amount|age|limit|size|max|min|temperature|integer|int|float|quantity|year)\b|(count|num|size|limit)$/i, '1'],
  [/\b(lang|language)\b/i, 'en'],
  [/\b(path|file|dir|directory|folder)\b/i, 'README.md'],
  [/\b(json)\b/i, '{}'],
]

export function shapedValue(arg: PromptArgument): string {
  const words = `${arg.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ')} ${arg.description ?? ''}`
  return SHAPES.find(([pattern]) => pattern.test(words))?.[1] ?? 'example'
}

/** What completion/complete can be asked about: the first prompt argument, else the first template variable. */
export function completionTarget(prompts: Prompt[], templates: unknown[]): CompletionTarget | undefined {
  for (const prompt of prompts) {
    const first = argumentsOf(prompt)[0]
    if (first) return { ref: { type: 'ref/prompt', name: prompt.name }, argument: first.name, label: `prompt ${JSON.stringify(prompt.name)}` }
  }
  for (const template of templates) {
    if (!isObject(template) || typeof template.uriTemplate !== 'string') continue
    // RFC 6570 expressions: {var}, {+var}, {?a,b}, …; the first variable name is enough.
    const variable = /\{[+#./;?&]?([A-Za-z0-9_]+)/.exec(template.uriTemplate)?.[1]
    if (variable) return { ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: variable, label: `template ${JSON.stringify(template.uriTemplate)}` }
  }
  return undefined
}

/**
 * Values for a prompt's required arguments, in order. `complete` asks the server (it returns
 * the first completion value, or undefined); the names of arguments the kit had to make up are
 * returned too, since a server may rightly reject those.
 */
export async function promptArguments(
  prompt: Prompt,
  complete?: (argument: string, context: Record<string, string>) => Promise<string | undefined>,
): Promise<{ args: Record<string, string>; madeUp: string[] }> {
  const args: Record<string, string> = {}
  const madeUp: string[] = []
  for (const arg of argumentsOf(prompt).filter((a) => a.required)) {
    const offered = complete ? await complete(arg.name, { ...args }) : undefined
    if (offered !== undefined) args[arg.name] = offered
    else {
      args[arg.name] = shapedValue(arg)
      madeUp.push(arg.name)
    }
  }
  return { args, madeUp }
}
