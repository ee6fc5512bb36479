import { describe, expect, it } from 'vitest'
import { Config } from '@mcp-bridge/plugin'
import { pluginKey } from '../src/loader/names.ts'
import { parseConfig, type ParseOutcome } from '../src/loader/parse.ts'
import { formatIssue, lineOfField } from '../src/loader/types.ts'
import { validateConfig } from '../src/loader/validate.ts'

const builtins = new Set(['@mcp-bridge/plugin'])
const parse = (text: string, env: Record<string, string> = {}) => parseConfig(text, { baseDir: '/srv/app', env, builtins })

function ok(outcome: ParseOutcome) {
  if (!outcome.ok) throw new Error(`expected a usable file, got: ${outcome.error.message}`)
  return outcome
}

describe('parseConfig: the file', () => {
  it('reads a list of { id, name, config, disabled? } entries in file order, with their lines', () => {
    const parsed = ok(
      parse(`
- id: everything
  name: '@mcp-bridge/plugin'
  config: { serverName: everything, transport: stdio, command: node }
- id: fs
  name: mcp-client
  disabled: true
  config:
    serverName: fs
`),
    )
    expect(parsed.errors).toEqual([])
    expect(parsed.entries).toEqual([
      {
        id: 'everything',
        name: '@mcp-bridge/plugin',
        key: '@mcp-bridge/plugin',
        config: { serverName: 'everything', transport: 'stdio', command: 'node' },
        disabled: false,
        line: 2,
        fieldLines: expect.any(Map),
      },
      // The alias resolves to the same plugin identity.
      { id: 'fs', name: 'mcp-client', key: '@mcp-bridge/plugin', config: { serverName: 'fs' }, disabled: true, line: 5, fieldLines: expect.any(Map) },
    ])
  })

  it('supports anchors and merge keys for settings shared between entries', () => {
    const parsed = ok(
      parse(`
- id: a
  name: mcp-client
  config: &common
    transport: stdio
    reconnect: { maxAttempts: 3 }
    serverName: a
- id: b
  name: mcp-client
  config: { <<: *common, serverName: b }
`),
    )
    expect(parsed.entries.map((e) => e.config)).toEqual([
      { transport: 'stdio', reconnect: { maxAttempts: 3 }, serverName: 'a' },
      { transport: 'stdio', reconnect: { maxAttempts: 3 }, serverName: 'b' },
    ])
  })

  it('accepts an empty list, and defaults a missing config to {}', () => {
    expect(ok(parse('[]')).entries).toEqual([])
    expect(ok(parse('- { id: a, name: mcp-client }')).entries[0]?.config).toEqual({})
  })

  it.each([
    ['invalid YAML, with its line', '- id: a\n  config: {\n- b', /^invalid YAML: Flow map in block collection .* at line 3, column 1$/, 3],
    ['a duplicate key', '- id: a\n  id: b\n', /^invalid YAML: Map keys must be unique at line 2, column 3$/, 2],
    ['an empty file', '# nothing yet\n', /the file is empty: write a list of entries \(or \[\] to run no plugins\)/, undefined],
    ['a mapping at the top', 'plugins:\n  - id: a\n', /top level must be a list .*move the items under "plugins:" to the top level/, 1],
    ['a tag outside any entry', '!env X', /Unresolved tag|must be a list/, 1],
  ])('rejects the whole file for %s', (_, text, message, line) => {
    const outcome = parse(text)
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error.message).toMatch(message)
    expect(outcome.error.line).toBe(line)
  })
})

describe('parseConfig: one bad entry disqualifies only itself', () => {
  const issues = (text: string) => {
    const parsed = ok(parse(text))
    return { ids: parsed.entries.map((e) => e.id), errors: parsed.errors.map((e) => formatIssue(e, 'cordis.yml')), parsed }
  }

  it('names the entry and the field', () => {
    const { ids, errors, parsed } = issues(`
- { id: good, name: mcp-client }
- { id: nameless }
- { id: typo, name: mcp-client, conifg: {} }
- { id: flag, name: mcp-client, disabled: yes please }
- { id: scalar, name: mcp-client, config: 3 }
- { id: tag, name: mcp-client, config: { a: !envv X } }
- { id: host, name: tools }
- { id: weird, name: 'not a package!' }
`)
    expect(ids).toEqual(['good'])
    expect(errors).toEqual([
      `cordis.yml:3: entry "nameless": name: is required: the plugin's package name or a path relative to this file`,
      'cordis.yml:4: entry "typo": conifg: is not an entry field (expected id, name, config, disabled); plugin options go under config',
      'cordis.yml:5: entry "flag": disabled: must be true or false',
      'cordis.yml:6: entry "scalar": config: must be a mapping of the plugin options',
      'cordis.yml:7: entry "tag": Unresolved tag: !envv at line 7, column 45',
      'cordis.yml:8: entry "host": name: "tools" is provided by the host itself: remove this entry (every entry can use the tools service)',
      expect.stringMatching(/^cordis.yml:9: entry "weird": name: "not a package!" is neither a package name nor a path/),
    ])
    // Their ids are held: whatever already runs under them is left alone.
    expect(parsed.held).toEqual(['nameless', 'typo', 'flag', 'scalar', 'tag', 'host', 'weird'])
    expect(parsed.keepMissing).toBe(false)
  })

  it('points each issue at the line of its field, or of its nearest written ancestor', () => {
    const { errors } = issues(`- id: a
  name: mcp-client
  config:
    transport: stdio
    args:
      - ok
      - \${NOT_SET}
    headers: { X: !env ALSO_NOT_SET }
- id: b
  disabled: maybe
  name: mcp-client
`)
    expect(errors).toEqual([
      expect.stringMatching(/^cordis\.yml:7: entry "a": config\.args\[1\]: environment variable NOT_SET is not set/),
      expect.stringMatching(/^cordis\.yml:8: entry "a": config\.headers\.X: environment variable ALSO_NOT_SET is not set/),
      'cordis.yml:10: entry "b": disabled: must be true or false',
    ])
    const parsed = ok(parse('- id: a\n  name: mcp-client\n  config:\n    env:\n      PORT: 3000\n    reconnect: { <<: { maxAttempts: 2 } }\n'))
    expect(Object.fromEntries(parsed.entries[0]!.fieldLines!)).toEqual({ id: 1, name: 2, config: 3, 'config.env': 4, 'config.env.PORT': 5, 'config.reconnect': 6 })
    expect(lineOfField('config.env.PORT', parsed.entries[0]!.fieldLines, 1)).toBe(5)
    // A key from a merge, or one the file does not have, points at its nearest written ancestor.
    expect(lineOfField('config.reconnect.maxAttempts', parsed.entries[0]!.fieldLines, 1)).toBe(6)
    expect(lineOfField('config.tools.include[0]', parsed.entries[0]!.fieldLines, 1)).toBe(3)
    expect(lineOfField(undefined, parsed.entries[0]!.fieldLines, 1)).toBe(1)
  })

  it('keeps the first of two entries with the same id and reports the second', () => {
    const { ids, errors, parsed } = issues('- { id: a, name: mcp-client }\n- { id: b, name: mcp-client }\n- { id: a, name: mcp-client }\n')
    expect(ids).toEqual(['a', 'b'])
    expect(errors).toEqual(['cordis.yml:3: entry "a": id: "a" is already used by the entry at line 1: ids must be unique'])
    expect(parsed.held).toEqual([])
    expect(parsed.keepMissing).toBe(false)
  })

  it('asks the caller to keep missing entries when an entry has no usable id', () => {
    const { errors, parsed } = issues('- { name: mcp-client }\n- { id: 7, name: mcp-client }\n- just a string\n')
    expect(errors).toEqual([
      'cordis.yml:1: entry #1: id: is required: give every entry a unique id',
      'cordis.yml:2: entry #2: id: 7 is invalid: use 1-64 characters from A-Z a-z 0-9 _ . : - starting with a letter or digit',
      'cordis.yml:3: entry #3: must be a mapping with id, name and config',
      'cordis.yml:3: entry #3: id: is required: give every entry a unique id',
      `cordis.yml:3: entry #3: name: is required: the plugin's package name or a path relative to this file`,
    ])
    expect(parsed.keepMissing).toBe(true)
  })

  it('does not resolve the references of a disabled entry', () => {
    const parsed = ok(parse('- { id: off, name: mcp-client, disabled: true, config: { token: !env NOT_SET } }'))
    expect(parsed.errors).toEqual([])
    expect(parsed.entries[0]?.disabled).toBe(true)
  })
})

describe('pluginKey', () => {
  const key = (name: string) => pluginKey(name, '/srv/app', builtins)
  it('resolves built-ins, aliases, packages and paths relative to the YAML file', () => {
    expect(key('@mcp-bridge/plugin')).toEqual({ kind: 'builtin', key: '@mcp-bridge/plugin' })
    expect(key('mcp-client')).toEqual({ kind: 'builtin', key: '@mcp-bridge/plugin' })
    expect(key('@acme/cordis-plugin')).toEqual({ kind: 'package', key: '@acme/cordis-plugin' })
    expect(key('./plugins/x.ts')).toEqual({ kind: 'path', key: '/srv/app/plugins/x.ts' })
    expect(key('../shared/y.js')).toEqual({ kind: 'path', key: '/srv/shared/y.js' })
    expect(key('/opt/z.js')).toEqual({ kind: 'path', key: '/opt/z.js' })
    expect(key('file:///opt/z.js')).toEqual({ kind: 'path', key: '/opt/z.js' })
  })
})

describe('validateConfig against the bridge schema', () => {
  it('reports the field of each problem, without the schema library prefixes', () => {
    const invalid = (config: unknown) => {
      const result = validateConfig(Config, config)
      return result.ok ? [] : result.issues
    }
    expect(invalid({ transport: 'stdio', serverName: 'bad name!', command: 'node' })).toEqual([
      { field: 'config.serverName', message: expect.stringMatching(/^serverName "bad name!" is invalid: use 1-32 characters/) },
    ])
    // The plugin's own checks carry their field too, list items as [n].
    expect(invalid({ transport: 'stdio', serverName: 'a', command: 'node', tools: { include: ['ok', ''] } })).toEqual([
      { field: 'config.tools.include[1]', message: expect.stringMatching(/^tools\.include\[1\] must be a raw tool name/) },
    ])
    expect(invalid({ transport: 'stdio', serverName: 'a', command: 'node', env: { PORT: 3000 } })).toEqual([
      { field: 'config.env.PORT', message: 'expected string (got 3000): quote it: "3000"' },
    ])
    expect(invalid({ serverName: 'a' })).toEqual([
      { field: 'config.transport', message: 'missing required value: set transport to "stdio" or "streamable-http"' },
    ])
    expect(invalid({ transport: 'stdio', serverName: 'a', command: 'x', reconnect: { maxAttempts: -1 } })).toEqual([
      { field: 'config.reconnect.maxAttempts', message: 'expected number >= 1 (got -1)' },
    ])
  })

  it('refuses a typo in the bridge config, suggesting the key that was meant', () => {
    const result = validateConfig(Config, { transport: 'stdio', serverName: 'a', command: 'x', toolCallTimoutMs: 5 })
    expect(result).toEqual({ ok: false, issues: [{ field: 'config.toolCallTimoutMs', message: 'unknown key "toolCallTimoutMs": did you mean "toolCallTimeoutMs"?' }] })
    const nested = validateConfig(Config, { transport: 'stdio', serverName: 'a', command: 'x', reconnect: { maxAttempt: 3 } })
    expect(nested).toEqual({ ok: false, issues: [{ field: 'config.reconnect.maxAttempt', message: 'unknown key "reconnect.maxAttempt": did you mean "reconnect.maxAttempts"?' }] })
  })

  it('lists options a lenient schema dropped, so typos do not pass silently', () => {
    const nested = validateConfig({ '~standard': { validate: () => ({ value: { a: { kept: 1 } } }) } }, { a: { kept: 1, typo: 2 } })
    expect(nested).toMatchObject({ ok: true, ignored: ['config.a.typo'] })
  })

  it('accepts anything when the plugin has no schema', () => {
    expect(validateConfig(undefined, { any: 'thing' })).toEqual({ ok: true, value: { any: 'thing' }, ignored: [] })
  })
})
