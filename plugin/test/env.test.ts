import { describe, expect, it } from 'vitest'
import { childEnvironment, isSecretName, isSecretValue, redactSecrets } from '../src/index.ts'
import { StderrTail } from '../src/stderr-tail.ts'

describe('child environment scrubbing', () => {
  it.each([
    'OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'AWS_SECRET_ACCESS_KEY', 'GH_PAT', 'SMTP_PASS', 'MYSQL_PASSWD',
    'GOOGLE_APPLICATION_CREDENTIALS', 'BASIC_AUTH', 'SESSION_COOKIE', 'SENTRY_DSN', 'NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES',
  ])('drops the credential-shaped name %s', (name) => {
    expect(isSecretName(name)).toBe(true)
  })

  it.each(['PATH', 'HOME', 'LANG', 'PWD', 'TERM', 'SHELL', 'TZ', 'XDG_CONFIG_HOME', 'PATHEXT'])('keeps %s', (name) => {
    expect(isSecretName(name)).toBe(false)
  })

  it.each([
    'postgres://app:hunter2@db.internal:5432/prod',
    'Bearer abc.def',
    'ghp_0123456789abcdefghijABCDEFGHIJ012345',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    'xoxb-1234567890-abcdefghij',
    'sk-proj-abcdefghijklmnopqrstuvwxyz',
    'AKIAABCDEFGHIJKLMNOP',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nabc',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123',
  ])('drops a credential-shaped value whatever its name: %s', (value) => {
    expect(isSecretValue(value)).toBe(true)
  })

  it.each(['/usr/bin:/bin', 'https://example.com/path', 'en_US.UTF-8', 'postgres://db.internal:5432/prod'])('keeps the plain value %s', (value) => {
    expect(isSecretValue(value)).toBe(false)
  })

  it('scrubs the parent, then lets explicit config win, unscrubbed', () => {
    const env = childEnvironment(
      { PATH: '/bin', GITHUB_TOKEN: 'ambient', DATABASE_URL: 'postgres://u:p@h/db', UNSET: undefined },
      { GITHUB_TOKEN: 'explicit', EXTRA: '1' },
    )
    expect(env).toEqual({ PATH: '/bin', GITHUB_TOKEN: 'explicit', EXTRA: '1' })
  })
})

describe('redacting server output', () => {
  it.each([
    ['fatal: cannot reach postgres://app:hunter2@db.internal:5432/prod', 'fatal: cannot reach postgres://app:<redacted>@db.internal:5432/prod'],
    ['sending Authorization: Bearer abc.def.ghi', 'sending Authorization: Bearer <redacted>'],
    ['using token ghp_0123456789abcdefghijABCDEFGHIJ012345 for GitHub', 'using token <redacted> for GitHub'],
    ['env OPENAI_API_KEY=sk-live-123 DEBUG=1', 'env OPENAI_API_KEY=<redacted> DEBUG=1'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123 rejected', 'jwt <redacted> rejected'],
    ['listening on http://127.0.0.1:3000/mcp', 'listening on http://127.0.0.1:3000/mcp'],
  ])('%s', (line, expected) => {
    expect(redactSecrets(line)).toBe(expected)
  })

  it('redacts what a child prints before it is logged or quoted', () => {
    const tail = new StderrTail()
    expect(tail.push('boot\npanic: postgres://u:s3cret@db/x\n')).toEqual(['boot', 'panic: postgres://u:<redacted>@db/x'])
    tail.push('DB_PASSWORD=s3cret')
    expect(tail.tail().join('\n')).not.toContain('s3cret')
  })
})
