import { describe, expect, it } from 'vitest'
import { formatResult, formatTools, resultJson, toolsJson } from '../src/cli/format.ts'
import type { ToolResult, ToolSchema } from '@mcp-bridge/plugin'

/** What a hostile server can put in a tool's text: a window title, a colour, a line erase, a bidi override. */
const OSC_TITLE = '\u001b]0;PWNED-TITLE\u0007'
const CSI_RED = '\u001b[31m'
const C1_CSI = '\u009b2J'

/** Any character a terminal acts on rather than prints (the newlines of the layout aside). */
const ACTING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/ // eslint-disable-line no-control-regex -- finding them is the point

const hostile: ToolSchema = {
  name: `renamed${CSI_RED}`,
  description: `desc with escape ${OSC_TITLE} and \u001b[2K\r\nsecond line\rover\tnext ${C1_CSI} a\u202eevil`,
  parameters: {
    type: 'object',
    properties: { [`x\n${CSI_RED}mcp__fake`]: { type: 'string', description: `d ${OSC_TITLE}`, enum: [`\u009bv`] } },
  },
}

describe('human CLI output shows server text, never obeys it', () => {
  it('tools: names, descriptions and schemas with their control characters escaped, line breaks kept as indented lines', () => {
    const listed = formatTools([hostile])
    expect(listed).not.toMatch(ACTING)
    expect(listed).toBe(
      [
        'renamed\\x1b[31m',
        '  desc with escape \\x1b]0;PWNED-TITLE\\x07 and \\x1b[2K',
        '  second line\\rover\\tnext \\x9b2J a\\u202eevil',
        '  arguments:',
        '    x\\n\\x1b[31mmcp__fake  "\\x9bv", optional  d \\x1b]0;PWNED-TITLE\\x07',
        '',
      ].join('\n'),
    )
  })

  it('call: the content, the error and the value, each escaped; the value stays JSON', () => {
    const value = { note: `${CSI_RED}red${C1_CSI}\u2028` }
    const ok: ToolResult = { isError: false, value, content: [{ type: 'text', text: `a${OSC_TITLE}\r\nb\rc` }] }
    const shown = formatResult(ok)
    expect(shown).not.toMatch(ACTING)
    expect(shown).toBe(
      [
        '--- content (what the model sees) ---',
        'a\\x1b]0;PWNED-TITLE\\x07',
        'b\\rc',
        '--- value ---',
        '{',
        '  "note": "\\u001b[31mred\\u009b2J\\u2028"',
        '}',
        '',
      ].join('\n'),
    )
    expect(JSON.parse(shown.slice(shown.indexOf('{')))).toEqual(value)

    const failed: ToolResult = { isError: true, error: { code: 'TOOL_ERROR', message: `boom${CSI_RED}\nmore` }, content: [{ type: 'text', text: 'Error' }] }
    expect(formatResult(failed)).toBe('--- content (what the model sees) ---\nError\n--- error (TOOL_ERROR) ---\nboom\\x1b[31m\nmore\n')
  })
})

describe('--json output stays exact JSON, with no character a terminal acts on', () => {
  it('tools --json', () => {
    const json = toolsJson([hostile])
    expect(json.slice(0, -1)).not.toMatch(ACTING)
    expect(JSON.parse(json)).toEqual([hostile])
  })

  it('call --json', () => {
    const result: ToolResult = { isError: false, value: { s: `${C1_CSI}\u2029\u2066` }, content: [{ type: 'text', text: `${OSC_TITLE}\u007f` }] }
    const json = resultJson(result)
    expect(json.slice(0, -1)).not.toMatch(ACTING)
    expect(JSON.parse(json)).toEqual(result)
  })
})
