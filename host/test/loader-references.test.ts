import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/loader/parse.ts'
import { resolveReferences } from '../src/loader/references.ts'
import { formatIssue } from '../src/loader/types.ts'

const env = { MCP_TOKEN: 's3cret', EMPTY: '', HOST: 'example.com' }

function load(text: string, variables: Record<string, string> = env) {
  const outcome = parseConfig(text, { baseDir: '/srv/app', env: variables, builtins: new Set(['@mcp-bridge/plugin']) })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return { configs: outcome.entries.map((entry) => entry.config), errors: outcome.errors.map((issue) => formatIssue(issue, 'cordis.yml')) }
}

describe('environment references in cordis.yml', () => {
  it('!env NAME takes the whole value from the environment', () => {
    const { configs, errors } = load(`
- id: web
  name: mcp-client
  config:
    headers:
      Authorization: !env MCP_TOKEN
      Empty: !env EMPTY
`)
    expect(errors).toEqual([])
    expect(configs).toEqual([{ headers: { Authorization: 's3cret', Empty: '' } }])
  })

  it('!env NAME:-default falls back when the variable is unset or empty', () => {
    const { configs } = load(`
- id: web
  name: mcp-client
  config: { a: !env MISSING:-fallback, b: !env EMPTY:-fallback, c: !env HOST:-fallback, d: !env MISSING:- }
`)
    expect(configs).toEqual([{ a: 'fallback', b: 'fallback', c: 'example.com', d: '' }])
  })

  it('interpolates ${NAME} and ${NAME:-default} inside any string, arrays included', () => {
    const { configs } = load(`
- id: web
  name: mcp-client
  config:
    url: https://\${HOST}/mcp?v=\${VERSION:-2}
    headers: { Authorization: "Bearer \${MCP_TOKEN}" }
    args: ['--host=\${HOST}', plain, $HOST, 'literal $\${HOST}']
    count: 3
`)
    expect(configs).toEqual([
      {
        url: 'https://example.com/mcp?v=2',
        headers: { Authorization: 'Bearer s3cret' },
        // $NAME without braces and $\${...} stay literal.
        args: ['--host=example.com', 'plain', '$HOST', 'literal ${HOST}'],
        count: 3,
      },
    ])
  })

  it('values from the environment stay strings: nothing is evaluated or coerced', () => {
    const { configs } = load(`
- id: web
  name: mcp-client
  config: { a: '\${N}', b: !env N, c: '\${CODE}' }
`, { N: '42', CODE: '${MCP_TOKEN}' })
    // A value is never re-interpolated, so a variable cannot pull in another one.
    expect(configs).toEqual([{ a: '42', b: '42', c: '${MCP_TOKEN}' }])
  })

  it('a missing variable is an error naming the entry, the field and the variable', () => {
    const { configs, errors } = load(`
- id: fine
  name: mcp-client
  config: { url: 'https://\${HOST}' }
- id: web
  name: mcp-client
  config:
    headers:
      Authorization: !env WEB_TOKEN
    args: ['--key=\${API_KEY}']
`)
    // The entry that was fine is still usable.
    expect(configs).toEqual([{ url: 'https://example.com' }])
    expect(errors).toEqual([
      'cordis.yml:9: entry "web": config.headers.Authorization: environment variable WEB_TOKEN is not set (referenced by !env WEB_TOKEN); set it, or give a default with WEB_TOKEN:-default',
      'cordis.yml:10: entry "web": config.args[0]: environment variable API_KEY is not set (referenced by ${API_KEY}); set it, or give a default with API_KEY:-default',
    ])
  })

  it('rejects malformed references and !!js, which is never evaluated', () => {
    const { errors } = load(`
- id: web
  name: mcp-client
  config:
    a: !env not-a-name
    b: 'open \${HOST'
    c: '\${}'
    d: !!js process.env.MCP_TOKEN
`)
    expect(errors).toEqual([
      'cordis.yml:5: entry "web": config.a: !env not-a-name is not a valid reference: write NAME or NAME:-default (NAME is letters, digits and _)',
      'cordis.yml:6: entry "web": config.b: "${" is not closed: write ${NAME}, or $${ for a literal "${"',
      'cordis.yml:7: entry "web": config.c: ${} is not a valid reference: write NAME or NAME:-default (NAME is letters, digits and _)',
      'cordis.yml:8: entry "web": config.d: !!js is not supported: cordis.yml values are never evaluated as code; reference environment variables with !env NAME or "${NAME}"',
    ])
  })

  it('!path resolves against the YAML file directory, not the process cwd', () => {
    const { configs } = load(`
- id: fs
  name: mcp-client
  config: { args: [!path ../node_modules/server/index.js, !path sandbox, !path /abs] }
`)
    expect(configs).toEqual([{ args: ['/srv/node_modules/server/index.js', '/srv/app/sandbox', '/abs'] }])
  })

  it('resolveReferences is pure: the input is not modified', () => {
    const input = { a: ['${HOST}'] }
    const { value } = resolveReferences(input, { env, baseDir: '/' }, 'config')
    expect(value).toEqual({ a: ['example.com'] })
    expect(input).toEqual({ a: ['${HOST}'] })
  })
})
