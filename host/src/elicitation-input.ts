import type { ElicitationField, ElicitationValue } from '@mcp-bridge/plugin'
import { escapeControls } from '@mcp-bridge/process'

/**
 * What a person typed for one form field, read as the field's kind: a number, yes/no, an option's
 * number or value, a comma-separated list of them. Pure; the plugin checks bounds and formats
 * again before anything is sent, so this only has to get the kind right.
 */
export type Parsed = { ok: true; value: ElicitationValue | undefined } | { ok: false; problem: string }

export function parseFieldInput(field: ElicitationField, text: string): Parsed {
  const input = text.trim()
  // Empty: the default (the plugin fills it in), or nothing for an optional field.
  if (input === '') return field.required && field.default === undefined ? { ok: false, problem: 'a value is required' } : { ok: true, value: undefined }
  switch (field.kind) {
    case 'string':
      return { ok: true, value: input }
    case 'number':
    case 'integer': {
      const value = Number(input)
      if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) return { ok: false, problem: `type ${field.kind === 'integer' ? 'a whole number' : 'a number'}` }
      return { ok: true, value }
    }
    case 'boolean':
      if (/^(y|yes|true)$/i.test(input)) return { ok: true, value: true }
      if (/^(n|no|false)$/i.test(input)) return { ok: true, value: false }
      return { ok: false, problem: 'type y or n' }
    case 'choice': {
      const value = pick(field, input)
      return value === undefined ? { ok: false, problem: 'type the number or the value of an option' } : { ok: true, value }
    }
    case 'choices': {
      const values = input.split(',').map((part) => pick(field, part.trim()))
      return values.some((v) => v === undefined) ? { ok: false, problem: 'type option numbers or values, separated by commas' } : { ok: true, value: values as string[] }
    }
  }
}

function pick(field: ElicitationField, input: string): string | undefined {
  const options = field.options ?? []
  const index = /^\d+$/.test(input) ? Number(input) - 1 : -1
  return options[index]?.value ?? options.find((o) => o.value === input)?.value
}

/** The line that asks for one field: its label, kind, options and default; the server's words escaped. */
export function fieldPrompt(field: ElicitationField): string {
  const label = escapeControls(field.title ?? field.name)
  const options = field.options?.map((o, i) => `${i + 1}) ${escapeControls(o.label)}`).join('  ')
  const kind = field.kind === 'boolean' ? 'y/n' : field.kind === 'choices' ? 'numbers, comma-separated' : field.kind === 'choice' ? 'number' : field.format ?? field.kind
  const fallback = field.default !== undefined ? `, Enter for ${JSON.stringify(field.default)}` : field.required ? '' : ', Enter to leave it out'
  return `${label}${field.description ? ` (${escapeControls(field.description)})` : ''}${options ? `\n  ${options}` : ''}\n  [${kind}${fallback}]: `
}
