import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../src/index.ts'

/**
 * A configuration error quotes the bad value so that the user can find it, but never a secret in
 * it: a value is redacted, with every secret known when the config is read (its env and header
 * values, its URL's credentials, the host's secret-looking variables), before a message quotes it.
 */
function messages(input: unknown): string {
  const result = Config['~standard'].validate(input) as { issues?: { message: string }[] }
  expect(result.issues, 'the config should have been refused').toBeDefined()
  return result.issues!.map((issue) => issue.message).join('\n')
}

const stdio = { transport: 'stdio', serverName: 'fs', command: 'node' }
const http = { transport: 'streamable-http', serverName: 'web', url: 'http://127.0.0.1:3000/mcp' }
/** Shaped like an OpenAI project key: recognised by its shape alone, wherever it appears. */
const SHAPED = `sk-proj-${'Ab3'.repeat(10)}`
/** Shaped like a GitHub token, and a valid variable-name tail. */
const GITHUB = `ghp_${'Cd4'.repeat(12)}`

const setVariables: string[] = []
afterEach(() => {
  for (const name of setVariables.splice(0)) delete process.env[name]
})

describe('a config error never quotes a secret interpolated into the bad value', () => {
  it.each([
    ['the scheme of a URL', { ...http, url: `${SHAPED}:rest` }, /^mcp-client config: url uses a string of \d+ characters: only http/],
    ['an unknown key', { ...stdio, [SHAPED]: 'x' }, /^mcp-client config: unknown key "<redacted>"/],
    ['a loader variable name', { ...stdio, inheritEnv: [`DYLD_${GITHUB}`] }, /inheritEnv\[0\] a name of \d+ characters is never inherited/],
  ])('a secret-shaped value in %s', (_, input, expected) => {
    const text = messages(input)
    expect(text).toMatch(expected)
    expect(text).not.toContain(SHAPED)
    expect(text.toLowerCase()).not.toMatch(/ab3ab3ab3|cd4cd4cd4/)
  })

  it('a value the config sets in env, quoted by another field (the value has no secret shape)', () => {
    const secret = 'plain words 42'
    const text = messages({ ...stdio, env: { DB_PASSWORD: secret }, serverName: secret })
    expect(text).toBe(`mcp-client config: serverName a string of ${secret.length} characters is invalid: use 1-32 characters from A-Z a-z 0-9 _ - (for example "github").`)
    // Any env value: the config says it belongs to the server, so an error is no place for it.
    expect(messages({ ...stdio, env: { GREETING: 'open sesame now' }, inheritEnv: ['open sesame now'] })).not.toContain('open sesame')
  })

  it('a header value, and a URL credential, quoted by the url field', () => {
    const text = messages({ ...http, headers: { Authorization: 'Bearer s3cr3tv4lue' }, url: 'not a url s3cr3tv4lue' })
    expect(text).toBe('mcp-client config: url a string of 21 characters is not a valid URL: write an absolute http:// or https:// URL.')
    expect(messages({ ...http, url: 'https://me:hunter2hunter@host/mcp', serverName: 'x hunter2hunter' })).not.toContain('hunter2hunter')
  })

  it("a host variable interpolated by the loader, and the one auth names", () => {
    setVariables.push('MCP_TEST_ERR_TOKEN', 'MCP_TEST_ERR_BEARER')
    process.env.MCP_TEST_ERR_TOKEN = 'words only here'
    process.env.MCP_TEST_ERR_BEARER = 'bearer value 7'
    expect(messages({ ...stdio, inheritEnv: ['words only here'] })).not.toContain('words only')
    const text = messages({ ...http, serverName: 'bearer value 7', auth: { type: 'bearer', tokenEnv: 'MCP_TEST_ERR_BEARER' } })
    expect(text).not.toContain('bearer value')
  })

  it('an ordinary bad value is still quoted, so the user can find it', () => {
    expect(messages({ ...stdio, serverName: 'has space' })).toContain('serverName "has space" is invalid')
    expect(messages({ ...http, url: 'ftp://host/mcp' })).toContain('url uses "ftp:": only http:// and https:// are supported')
    expect(messages({ ...stdio, inheritEnv: ['NODE_OPTIONS'] })).toContain('inheritEnv[0] NODE_OPTIONS is never inherited')
  })
})
