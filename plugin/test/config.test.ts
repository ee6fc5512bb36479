import { describe, expect, it } from 'vitest'
import { Config } from '../src/index.ts'

function validate(input: unknown) {
  const result = Config['~standard'].validate(input) as { value?: unknown; issues?: { message: string }[] }
  return result
}

const stdio = { transport: 'stdio', serverName: 'fs', command: 'node' }

describe('Config', () => {
  it('applies the seed defaults', () => {
    expect(validate(stdio).value).toMatchObject({
      transport: 'stdio',
      serverName: 'fs',
      args: [],
      env: {},
      toolCallTimeoutMs: 60_000,
      failOnStartupError: false,
      reconnect: { enabled: true, initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 },
    })
    expect(validate({ transport: 'streamable-http', serverName: 'web', url: 'http://127.0.0.1:3000/mcp' }).value).toMatchObject({
      headers: {},
      toolCallTimeoutMs: 60_000,
    })
  })

  it.each([
    [{ ...stdio, serverName: 'has space' }, /serverName "has space" is invalid.*A-Z a-z 0-9 _ -/],
    [{ ...stdio, serverName: 'x'.repeat(33) }, /serverName .* 1-32 characters/],
    [{ ...stdio, serverName: 'a__b' }, /serverName "a__b" is invalid: it may not contain "__" or end with "_".*mcp__a__b__c.*use "a_b"/],
    [{ ...stdio, serverName: 'git_' }, /serverName "git_" is invalid: it may not contain "__" or end with "_".*use "git"/],
    [{ ...stdio, command: undefined }, /command is required with transport "stdio"/],
    [{ transport: 'streamable-http', serverName: 'web' }, /url is required with transport "streamable-http"/],
    [{ transport: 'streamable-http', serverName: 'web', url: 'not a url' }, /url "not a url" is not a valid URL/],
    [{ transport: 'streamable-http', serverName: 'web', url: 'ftp://host/mcp' }, /only http:\/\/ and https:\/\//],
    [{ ...stdio, transport: 'http' }, /transport expected "stdio" \| "streamable-http"/],
    [{ ...stdio, toolCallTimeoutMs: 0 }, /toolCallTimeoutMs expected number >= 1/],
    [{ ...stdio, toolCallTimeoutMs: -5 }, /toolCallTimeoutMs/],
    [{ ...stdio, toolCallTimeoutMs: 3_000_000_000 }, /toolCallTimeoutMs expected number <= 2147483647/],
    [{ ...stdio, reconnect: { maxAttempts: 0 } }, /maxAttempts/],
    [{ ...stdio, reconnect: { initialDelayMs: 5_000, maxDelayMs: 100 } }, /reconnect.initialDelayMs \(5000\) must not exceed/],
    [{ ...stdio, toolCallTimeoutMs: 10_000, maxTotalTimeoutMs: 5_000 }, /maxTotalTimeoutMs \(5000\) must be at least/],
  ])('rejects %j with a message naming the field', (input, message) => {
    const { issues } = validate(input)
    expect(issues?.map((i) => i.message).join('\n')).toMatch(message)
  })
})

describe('the field path of the plugin\'s own checks', () => {
  it.each([
    [{ ...stdio, serverName: 'has space' }, ['serverName'], 'mcp-client config: serverName "has space" is invalid'],
    [{ ...stdio, tools: { include: ['ok', ''] } }, ['tools', 'include', 1], 'mcp-client config: tools.include[1] must be'],
    [{ ...stdio, inheritEnv: ['LANG', 'NODE_OPTIONS'] }, ['inheritEnv', 1], 'mcp-client config: inheritEnv[1] NODE_OPTIONS is never inherited'],
    [{ ...stdio, reconnect: { initialDelayMs: 5_000, maxDelayMs: 100 } }, ['reconnect', 'initialDelayMs'], 'mcp-client config: reconnect.initialDelayMs (5000)'],
    [{ ...stdio, transprt: 'stdio' }, ['transprt'], 'mcp-client config: unknown key "transprt": did you mean "transport"?'],
    [{ ...stdio, reconnect: { maxAttempt: 3 } }, ['reconnect', 'maxAttempt'], 'mcp-client config: unknown key "reconnect.maxAttempt"'],
    [[], [], 'mcp-client config: (the whole config) must be an object'],
  ])('%j is reported at its field, with the message a code host sees unchanged (no schemastery path prefix)', (input, path, message) => {
    const issues = validate(input).issues as { message: string; path?: unknown[] }[]
    expect(issues).toHaveLength(1)
    expect(issues[0]!.path).toEqual(path)
    expect(issues[0]!.message.startsWith(message)).toBe(true)
  })
})
