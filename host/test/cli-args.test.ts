import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../src/cli/args.ts'
import { formatResult, formatTools, resultJson, toolsJson } from '../src/cli/format.ts'
import { schemaLines, typeText } from '../src/cli/schema-text.ts'

describe('parseCommandLine', () => {
  it('reads the three commands with their defaults', () => {
    expect(parseCommandLine(['tools'])).toEqual({ ok: true, command: { kind: 'tools', config: 'cordis.yml', logLevel: 'warn', json: false } })
    expect(parseCommandLine(['--config', 'x.yml', 'tools', '--json'])).toEqual({
      ok: true,
      command: { kind: 'tools', config: 'x.yml', logLevel: 'warn', json: true },
    })
    expect(parseCommandLine(['-c', 'x.yml', 'call', 'mcp__a__b', '{"k":[1]}'])).toEqual({
      ok: true,
      command: { kind: 'call', config: 'x.yml', logLevel: 'warn', json: false, tool: 'mcp__a__b', args: { k: [1] } },
    })
    expect(parseCommandLine(['call', 'mcp__a__b'])).toMatchObject({ ok: true, command: { args: {} } })
    expect(parseCommandLine(['watch', '--log-level', 'debug'])).toEqual({ ok: true, command: { kind: 'watch', config: 'cordis.yml', logLevel: 'debug' } })
    expect(parseCommandLine(['watch'])).toMatchObject({ command: { logLevel: 'info' } })
    expect(parseCommandLine(['tools', '--help'])).toEqual({ ok: true, command: { kind: 'help' } })
    expect(parseCommandLine(['--version'])).toEqual({ ok: true, command: { kind: 'version' } })
    expect(parseCommandLine(['call', 'x', '--version'])).toEqual({ ok: true, command: { kind: 'version' } })
  })

  it.each([
    [[], /missing command/],
    [['serve'], /unknown command "serve"/],
    [['tools', 'extra'], /unexpected argument "extra"/],
    [['call'], /call needs the public name of a tool/],
    [['call', 'x', '{nope'], /the arguments are not valid JSON/],
    [['call', 'x', '[1]'], /the arguments must be a JSON object/],
    [['call', 'x', '{}', 'more'], /unexpected argument "more"/],
    [['watch', '--json'], /--json applies to tools and call/],
    [['tools', '--log-level', 'loud'], /--log-level must be error, warn, info or debug/],
    [['tools', '--frob'], /^unknown option --frob$/],
    [['tools', '--config'], /^--config needs a value$/],
    [['tools', '-c'], /^--config needs a value$/],
    [['--config', '--json', 'tools'], /^--config needs a value \(write --config=VALUE for one that starts with "-"\)$/],
    [['tools', '--json=yes'], /^--json takes no value$/],
  ])('rejects %j', (argv, message) => {
    const parsed = parseCommandLine(argv)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error).toMatch(message)
  })
})

describe('human-readable output', () => {
  const echo = {
    name: 'mcp__everything__echo',
    description: 'Echoes back the input string',
    parameters: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] },
  }

  it('prints each tool with its full description and arguments', () => {
    const listed = formatTools([
      echo,
      { name: 'mcp__x__none', description: 'Line one.\nLine two.', parameters: { type: 'object', properties: {} } },
    ])
    expect(listed).toBe(
      [
        'mcp__everything__echo',
        '  Echoes back the input string',
        '  arguments:',
        '    message  string, required  Message to echo',
        '',
        'mcp__x__none',
        '  Line one.',
        '  Line two.',
        '  arguments:',
        '    (no arguments)',
        '',
      ].join('\n'),
    )
    expect(formatTools([])).toBe('(no tools)\n')
  })

  it('describes types, enums, defaults, ranges and nested objects', () => {
    const lines = schemaLines({
      type: 'object',
      properties: {
        mode: { enum: ['fast', 'slow'], default: 'fast' },
        count: { type: 'integer', minimum: 1, maximum: 10 },
        edits: { type: 'array', items: { type: 'object', properties: { from: { type: 'string' } }, required: ['from'] } },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['edits'],
    })
    expect(lines).toEqual([
      'mode    "fast" | "slow", optional, default "fast"',
      'count   integer 1..10, optional',
      'edits   array of object, required',
      '  from  string, required',
      'either  string | null, optional',
    ])
    expect(typeText({ type: 'string', format: 'uri' })).toBe('string (uri)')
    expect(schemaLines(undefined)).toEqual(['(any arguments)'])
  })

  it('prints what the model sees, then the canonical value or the error', () => {
    const value = { content: [{ type: 'text', text: 'Echo: hi' }] }
    expect(formatResult({ isError: false, value, content: [{ type: 'text', text: 'Echo: hi' }] })).toBe(
      `--- content (what the model sees) ---\nEcho: hi\n--- value ---\n${JSON.stringify(value, null, 2)}\n`,
    )
    expect(
      formatResult({ isError: true, error: { code: 'TOOL_ERROR', message: 'boom' }, content: [{ type: 'text', text: 'Error: boom' }] }),
    ).toBe('--- content (what the model sees) ---\nError: boom\n--- error (TOOL_ERROR) ---\nboom\n')
  })

  it('JSON output is the exact tool list and result', () => {
    expect(JSON.parse(toolsJson([{ ...echo, extra: true } as typeof echo]))).toEqual([echo])
    const result = { isError: false as const, value: 1, content: [{ type: 'text' as const, text: '1' }] }
    expect(JSON.parse(resultJson(result))).toEqual(result)
  })
})
