import { describe, expect, it } from 'vitest'
import { childEnvironment, isSecretName, isSecretValue } from '../src/index.ts'

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
