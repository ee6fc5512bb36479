import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { configSecrets, createLearningRedactor, createRedactor, isSecretName, isSecretValue, quoteUntrusted, redactSecrets, redactUrl, StderrTail, type Redact } from '../src/index.ts'

describe('secret shapes are removed from free text', () => {
  it.each([
    ['fatal: cannot reach postgres://app:hunter2@db.internal:5432/prod', 'fatal: cannot reach postgres://app:<redacted>@db.internal:5432/prod'],
    ['mysql://db/app?user=u&password=hunter2&ssl=1', 'mysql://db/app?user=u&password=<redacted>&ssl=1'],
    ['Server=db;Uid=sa;Pwd=Secret1;', 'Server=db;Uid=sa;Pwd=<redacted>;'],
    ['sending Authorization: Bearer abc.def.ghi', 'sending Authorization: Bearer <redacted>'],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic <redacted>'],
    ['env OPENAI_API_KEY=sk-live-123 DEBUG=1', 'env OPENAI_API_KEY=<redacted> DEBUG=1'],
    ['GH_PAT: 0123abcd', 'GH_PAT: <redacted>'],
    ['x-api-key: k3y-value', 'x-api-key: <redacted>'],
    ['{"apiKey":"abc123","name":"x"}', '{"apiKey":"<redacted>","name":"x"}'],
    ['{\\"clientSecret\\":\\"abc123\\"}', '{\\"clientSecret\\":\\"<redacted>\\"}'],
    ['run --password hunter2 --verbose --token=abcd', 'run --password <redacted> --verbose --token=<redacted>'],
    ['key AKIAABCDEFGHIJKLMNOP and ASIAABCDEFGHIJKLMNOP', 'key <redacted> and <redacted>'],
    ['using ghp_0123456789abcdefghijABCDEFGHIJ012345 for GitHub', 'using <redacted> for GitHub'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', '<redacted>'],
    ['npm_abcdefghijklmnopqrstuvwxyz0123456789', '<redacted>'],
    ['slack xoxb-1234567890-abcdefghij', 'slack <redacted>'],
    ['post to https://hooks.slack.com/services/T000/B000/XXXXXXXX now', 'post to https://hooks.slack.com/services/<redacted> now'],
    ['hf_abcdefghijklmnopqrstuvwxyz12', '<redacted>'],
    ['sk-ant-api03-abcdefghijklmnopqrstuvwxyz', '<redacted>'],
    ['stripe sk_live_abcdefghijklmnop rk_live_abcdefghijklmnop', 'stripe <redacted> <redacted>'],
    ['AIzaSyA1234567890abcdefghijklmnopqrstuv', '<redacted>'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123 rejected', 'jwt <redacted> rejected'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- after', '<redacted private key> after'],
    ['-----BEGIN PRIVATE KEY-----\nMIIEvQ (cut off)', '<redacted private key>'],
  ])('%s', (line, expected) => {
    expect(redactSecrets(line)).toBe(expected)
  })

  it.each([
    'listening on http://127.0.0.1:3000/mcp',
    'Bearer realm="mcp-fixture"',
    'Basic authentication failed',
    'MCP error -32603: Scripted HTTP 500',
    'tool "x" not registered: inputSchema must have type "object"',
    'PATH=/usr/bin:/bin',
    'task-abcdefghijklmnopqrstuvwxyz',
    'transcript differs from scenarios/http-404-session-expiry.http.snap:\nline 12: expected x',
  ])('leaves ordinary text alone: %s', (line) => {
    expect(redactSecrets(line)).toBe(line)
  })

  it('is idempotent', () => {
    const once = redactSecrets('Authorization: Bearer abc.def token=xyz https://u:p4ss@h/')
    expect(redactSecrets(once)).toBe(once)
  })
})

describe('credentials that are easy to miss', () => {
  it.each([
    // RFC 7235: the scheme is case-insensitive; an all-lower-case credential is still one.
    ['Authorization: bearer lowercasetokenvalue', 'Authorization: bearer <redacted>'],
    ['bearer lowercasetokenvalue', 'bearer <redacted>'],
    ['BEARER abcdefgh1234 then bEaReR abc123def', 'BEARER <redacted> then bEaReR <redacted>'],
    ['Basic dXNlcjpwYXNz and bAsIc dXNlcjpwYXNz', 'Basic <redacted> and bAsIc <redacted>'],
    ['google said ya29.a0AfH6SMBexampleGoogleOauthAccessTokenValue123 expired', 'google said <redacted> expired'],
    ['x-api-key abcdef0123456789abcdef', 'x-api-key <redacted>'],
    ['X-API-Key\tAbCdEf0123456789', 'X-API-Key\t<redacted>'],
    ['x-api-key: abcdef0123456789abcdef', 'x-api-key: <redacted>'],
    // A look-alike hyphen (U+2010, U+2011, U+2212) or an invisible character pasted into the key.
    ['key sk\u2011proj\u2011AbCdEfGhIjKlMnOpQrStUvWx1234', 'key <redacted>'],
    ['key sk\u2010AbCdEfGhIjKlMnOpQrStUvWx1234', 'key <redacted>'],
    ['key sk\u2212AbCdEfGhIjKlMnOpQrStUvWx1234', 'key <redacted>'],
    ...['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'].map((invisible) => [
      `key sk-${invisible}AbCdEfGhIjKl${invisible}MnOpQrStUvWx1234`,
      'key <redacted>',
    ]),
    ['key s\u200bk-AbCdEfGhIjKlMnOpQrStUvWx1234', 'key <redacted>'],
    // Glued to a word: a server's message with no space before the key, a name built from one.
    ['Method not foundsk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234 end', 'Method not found<redacted> end'],
    ['leak_sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234', 'leak_<redacted>'],
    ['x-sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx1234', 'x-<redacted>'],
  ])('%s', (line, expected) => {
    expect(redactSecrets(line)).toBe(expected)
  })

  it.each([
    'the bearer token is missing',
    'send a bearer token in the Authorization header',
    'Bearer tokens expire after an hour',
    'digest authentication is not supported',
    'the x-api-key header is required',
    'set x-api-key to your key',
    'a risk-free, task-based plan; ask-me-anything',
    'risk\u2011free and task\u2011based',
    'ask-me-anything-about-the-sk-api-and-more',
    'task-project-planning-board-and-more',
    'desk-admin-settings-for-the-whole-team',
  ])('leaves prose alone: %s', (line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe('patterns rewritten to run in linear time redact what they did', () => {
  it.each([
    // The opening quote has more backslashes than the closing one: the head is the last ones.
    ['\\\\\\"apiKey\\":"x"', '\\\\\\"apiKey\\":"<redacted>"'],
    // A closing quote with more backslashes than the opening one closes nothing.
    ['\\"apiKey\\\\":"x"', '\\"apiKey\\\\":"x"'],
    // JSON in a string in a string: three backslashes around every quote.
    ['{\\\\\\"apiKey\\\\\\":\\\\\\"s3cret\\\\\\"}', '{\\\\\\"apiKey\\\\\\":\\\\\\"<redacted>\\\\\\"}'],
    ['{"apiKey":"with spaces, and commas"}', '{"apiKey":"<redacted>"}'],
    // Flags glued after a dot: the first flag of the run is matched, the secret may be a later one.
    ['--a.-token abc', '--a.-token <redacted>'],
    ['x.--token abc', 'x.--token <redacted>'],
    ['--primary.-key hunter2', '--primary.-key <redacted>'],
    ['--primary-key hunter2', '--primary-key hunter2'],
    // A JWT glued to the text before it, or after something JWT-like.
    ['jwt_eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123 x', 'jwt_<redacted> x'],
    ['eyJabc.eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.x', 'eyJabc.<redacted>'],
    ['eyJeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.', '<redacted>'],
    ['unsigned eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', 'unsigned <redacted>'],
  ])('%s', (line, expected) => {
    expect(redactSecrets(line)).toBe(expected)
  })

  it('reads a JSON value opened by more backslashes than five levels of nesting give as a bare run', () => {
    const deep = '\\'.repeat(31)
    expect(redactSecrets(`"apiKey":${deep}"a b${deep}"`)).toBe(`"apiKey":${deep}"<redacted>${deep}"`)
    const deeper = '\\'.repeat(32)
    expect(redactSecrets(`"apiKey":${deeper}"a b${deeper}"`)).toBe(`"apiKey":<redacted> b${deeper}"`)
  })
})

describe('names and values', () => {
  it.each(['OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'GH_PAT', 'MYSQL_PWD', 'PASSPHRASE', 'API_CREDS', 'HF_HUB_TOK', 'STRIPE_SK', 'apiKey', 'x-api-key', 'clientSecret', 'SESSION_COOKIE', 'SENTRY_DSN', 'SLACK_WEBHOOK_URL'])(
    '%s is a secret name',
    (name) => expect(isSecretName(name)).toBe(true),
  )

  it.each(['PATH', 'HOME', 'LANG', 'PWD', 'TERM', 'SHELL', 'TZ', 'XDG_CONFIG_HOME', 'DATABASE_URL'])('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false)
  })

  it.each(['postgres://app:hunter2@db/prod', 'mysql://db/app?password=x', 'Bearer abc.def', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'https://hooks.slack.com/services/T0/B0/X'])(
    'a value carrying a credential is recognised whatever its name: %s',
    (value) => expect(isSecretValue(value)).toBe(true),
  )
})

describe('configured secrets are removed wherever they appear', () => {
  const redact = createRedactor(
    configSecrets({
      headers: { authorization: 'Bearer plain-looking-credential', 'x-tenant': 'ab' },
      env: { API_TOKEN: 'short1', CONFIG_BLOB: 'n0t-shaped-like-4-secret', MODE: 'production', DATA_DIR: '/var/lib/data/v2' },
      url: 'https://alice:open-sesame@mcp.example/mcp?access_token=tok-value-123&page=2',
    }),
  )

  it('header values, with and without their scheme, in any spelling', () => {
    expect(redact('echo: Bearer plain-looking-credential')).toBe('echo: Bearer <redacted>')
    expect(redact('the server said plain-looking-credential')).toBe('the server said <redacted>')
    expect(redact(JSON.stringify({ note: 'plain-looking-credential' }))).toBe('{"note":"<redacted>"}')
    expect(redact('q=plain-looking-credential')).toBe('q=<redacted>')
  })

  it('env values that are secret by name or look random; ordinary words and paths stay', () => {
    expect(redact('got short1 and n0t-shaped-like-4-secret')).toBe('got <redacted> and <redacted>')
    expect(redact('running in production from /var/lib/data/v2')).toBe('running in production from /var/lib/data/v2')
  })

  it('a configured value that holds a secret shape goes whole, not only its shape', () => {
    const value = `team-7f3a9c sk-proj-${'Ab1'.repeat(16)}`
    expect(createRedactor([value])(`said ${value}.`)).toBe('said <redacted>.')
  })

  it('configured values too long for one pattern (300,000 JSON-dense characters) are removed, and a shorter one never cuts into the marker', () => {
    const long = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ k: `v${i}` })))
    const redact = createRedactor([long, 'edacted', ...Array.from({ length: 3_000 }, (_, i) => `value-${i}-xyz`)])
    expect(redact(`a ${long} b`)).toBe('a <redacted> b')
    expect(redact(JSON.stringify({ blob: long }))).toBe('{"blob":"<redacted>"}')
    expect(redact('x value-2999-xyz y value-0-xyz z')).toBe('x <redacted> y <redacted> z')
  })

  it('URL passwords, the Basic credential made of them, and secret query values', () => {
    const basic = Buffer.from('alice:open-sesame').toString('base64')
    expect(redact(`open-sesame ${basic} tok-value-123`)).toBe('<redacted> <redacted> <redacted>')
    expect(redactUrl('https://alice:open-sesame@mcp.example/mcp?access_token=tok-value-123&page=2')).toBe(
      'https://alice:<redacted>@mcp.example/mcp?access_token=<redacted>&page=2',
    )
  })
})

describe('untrusted text is redacted, then bounded', () => {
  it('cuts at the limit with a notice of the original length', () => {
    expect(quoteUntrusted('x'.repeat(50), 10)).toBe(`${'x'.repeat(10)}… [cut: showed 10 of 50 characters]`)
    expect(quoteUntrusted('short', 10)).toBe('short')
  })

  it('never leaves part of a secret that straddles the limit', () => {
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345'
    for (const at of [0, 5, 9, 15]) {
      expect(quoteUntrusted(`${'x'.repeat(at)}${token}${'y'.repeat(100)}`, 20)).not.toMatch(/ghp_|0123456789/)
    }
  })

  it('redacts only a window of a huge text, so its cost does not grow with the text', () => {
    const huge = `token=abc ${'x'.repeat(20_000_000)}`
    const seen: number[] = []
    const counting: Redact = (text) => {
      seen.push(text.length)
      return redactSecrets(text)
    }
    expect(quoteUntrusted(huge, 100, counting)).toMatch(/^token=<redacted> x+… \[cut: showed 100 of 20000010 characters\]$/)
    // The redactor saw the shown part and a margin longer than any secret, not the 20 MB.
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBeLessThan(100 + 4_096)
  })
})

describe('stderr of a child', () => {
  it('is redacted before it is logged or quoted', () => {
    const tail = new StderrTail()
    expect(tail.push('boot\npanic: postgres://u:s3cret@db/x\n')).toEqual(['boot', 'panic: postgres://u:<redacted>@db/x'])
    tail.push('DB_PASSWORD=s3cret')
    expect(tail.tail().join('\n')).not.toContain('s3cret')
  })

  it('is decoded once, so a character split across chunks survives', () => {
    const tail = new StderrTail()
    const bytes = Buffer.from('Grüße aus Köln 🎉\n')
    const lines: string[] = []
    for (let i = 0; i < bytes.length; i++) lines.push(...tail.push(bytes.subarray(i, i + 1)))
    expect(lines).toEqual(['Grüße aus Köln 🎉'])
  })

  it('stays bounded however long a line grows, and keeps no part of a secret that crosses the cut', () => {
    const tail = new StderrTail(undefined, 3, 100)
    tail.push(`${'a'.repeat(90)} AKIAABCDEFGHIJKLMNOP`)
    for (let i = 0; i < 1000; i++) tail.push('b'.repeat(10_000))
    const [line] = tail.tail()
    expect(line!.length).toBeLessThan(200)
    expect(line).toMatch(/^a{90} <redacted… \[cut: showed 100 of 10000111 characters\]$/)
    for (let i = 0; i < 10; i++) tail.push(`line ${i}\n`)
    expect(tail.tail()).toEqual(['line 7', 'line 8', 'line 9'])
  })
})

describe('a private key printed line by line', () => {
  it('loses every line from BEGIN to END, not only the marker lines', () => {
    const tail = new StderrTail()
    const lines = tail.push('loading key\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nq1w2e3r4t5y6\n-----END RSA PRIVATE KEY-----\nready\n')
    expect(lines).toEqual(['loading key', '<redacted private key>', '<redacted private key>', '<redacted private key>', '<redacted private key>', 'ready'])
  })
})

describe('a learning redactor (tokens obtained at run time)', () => {
  it('removes what it is taught from then on, keeps its fixed values, and forgets only the oldest learned ones past its bound', () => {
    const redact = createLearningRedactor(['fixed-secret-value'], 2)
    expect(redact('tok-aaaaaaaa and fixed-secret-value')).toBe('tok-aaaaaaaa and <redacted>')
    redact.learn('tok-aaaaaaaa')
    expect(redact('tok-aaaaaaaa')).toBe('<redacted>')
    redact.learn('tok-bbbbbbbb')
    redact.learn('tok-cccccccc')
    // The bound keeps the two most recent: the first token is forgotten, the fixed value never is.
    expect(redact('tok-aaaaaaaa tok-bbbbbbbb tok-cccccccc fixed-secret-value')).toBe('tok-aaaaaaaa <redacted> <redacted> <redacted>')
  })
})

describe("the bridge's own words", () => {
  /**
   * Logs and errors pass through the same redaction as what servers say, so a message of ours
   * that reads like `name: value` with a secret's name loses a word ("looks like a credential:
   * <redacted> it in env" reached operators once). Every string literal in the packages that
   * redact their logs (this one, the plugin, the host) but redact.ts (whose literals are the
   * patterns and their examples) must come through unchanged, with each interpolation and format
   * placeholder standing in as a plain word.
   */
  it('are never taken for secrets', () => {
    const roots = ['../src/', '../../plugin/src/'].map((dir) => new URL(dir, import.meta.url))
    const changed: string[] = []
    let checked = 0
    for (const root of roots) {
      const files = readdirSync(root, { recursive: true }).map(String).filter((file) => file.endsWith('.ts') && file !== 'redact.ts')
      for (const file of files) {
        const source = readFileSync(new URL(file, root), 'utf8')
        for (const [, quoted, template] of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)) {
          const text = (quoted ?? template!).replace(/\$\{[^}]*\}/g, 'word').replace(/%[sd]/g, 'word')
          checked++
          if (redactSecrets(text) !== text) changed.push(`${file}: ${text} -> ${redactSecrets(text)}`)
        }
      }
    }
    expect(checked).toBeGreaterThan(500)
    expect(changed).toEqual([])
  })
})
