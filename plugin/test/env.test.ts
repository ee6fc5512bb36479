import { describe, expect, it } from 'vitest'
import { childEnvironment } from '../src/env.ts'

const parent = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  USER: 'me',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C',
  PWD: '/work',
  // The seed's denylist let every one of these through.
  STRIPE_SK: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  DATABASE_URL: 'mysql://db.internal/app?password=hunter2',
  HF_HUB_TOK: 'hf_abcdefghijklmnopqrstuvwxyz0123',
  MYSQL_PWD: 'hunter2',
  PASSPHRASE: 'correct horse battery staple',
  API_CREDS: 'user:pass',
  NOTIFY_URL: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
  NODE_OPTIONS: '--require /tmp/evil.js',
  LD_PRELOAD: '/tmp/evil.so',
  UNSET: undefined,
}

describe('the child environment is an allowlist', () => {
  it('passes only the safe base when nothing is inherited: no secret reaches the child by default', () => {
    const { env, secretLooking } = childEnvironment(parent)
    expect(env).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/me', USER: 'me' })
    expect(secretLooking).toEqual([])
  })

  it('adds what inheritEnv names, by name or glob, then env on top', () => {
    const { env } = childEnvironment(parent, ['LANG', 'LC_*'], { GITHUB_TOKEN: 'explicit', PATH: '/opt/bin' })
    expect(env).toEqual({ PATH: '/opt/bin', HOME: '/home/me', USER: 'me', LANG: 'en_US.UTF-8', LC_ALL: 'C', GITHUB_TOKEN: 'explicit' })
  })

  it('reports inherited names or values that look like credentials, so the host can warn', () => {
    const { env, secretLooking } = childEnvironment(parent, ['*'])
    expect(secretLooking).toEqual(['API_CREDS', 'DATABASE_URL', 'HF_HUB_TOK', 'MYSQL_PWD', 'NOTIFY_URL', 'PASSPHRASE', 'STRIPE_SK'])
    // PWD is the working directory, not a password.
    expect(env.PWD).toBe('/work')
  })

  it('never inherits loader hijacks, even through "*"; only env can set them', () => {
    expect(childEnvironment(parent, ['*']).env).not.toHaveProperty('NODE_OPTIONS')
    expect(childEnvironment(parent, ['LD_*']).env).not.toHaveProperty('LD_PRELOAD')
    expect(childEnvironment(parent, [], { NODE_OPTIONS: '--max-old-space-size=64' }).env.NODE_OPTIONS).toBe('--max-old-space-size=64')
  })

  it('keeps out every loader variable, DYLD_* included, through any glob', () => {
    const loaders = { NODE_PATH: '/tmp/evil', LD_AUDIT: '/tmp/evil.so', LD_LIBRARY_PATH: '/tmp/lib', DYLD_INSERT_LIBRARIES: '/tmp/evil.dylib', DYLD_LIBRARY_PATH: '/tmp/lib' }
    for (const inherit of [['*'], ['NODE_*', 'LD_*', 'DYLD_*'], Object.keys(loaders)]) {
      expect(childEnvironment({ PATH: '/bin', ...loaders }, inherit).env).toEqual({ PATH: '/bin' })
    }
  })

  it('refuses the loader variables by their exact names only: a name that merely contains one is inherited', () => {
    const host = { MY_NODE_OPTIONS: 'a', NODE_PATH_EXTRA: 'b', APP_LD_PRELOAD_HINT: 'c', NODE_OPTIONS: 'd' }
    expect(childEnvironment(host, ['*']).env).toEqual({ MY_NODE_OPTIONS: 'a', NODE_PATH_EXTRA: 'b', APP_LD_PRELOAD_HINT: 'c' })
  })

  it('skips exported shell functions in the base, like the SDK', () => {
    expect(childEnvironment({ SHELL: '() { :; }; echo pwned', PATH: '/bin' }).env).toEqual({ PATH: '/bin' })
  })

  it('matches an entry letter for letter: only * is a wildcard, every other character stands for itself', () => {
    const host = { PWD: '/work', http_proxy: 'http://proxy:3128', 'A.B': 'dotted', AXB: 'not asked for', 'A.B.C': 'longer' }
    expect(childEnvironment(host, ['PWD', 'http_proxy', 'A.B']).env).toEqual({ PWD: '/work', http_proxy: 'http://proxy:3128', 'A.B': 'dotted' })
  })

  it('never inherits a variable the host has no value for, even through "*"', () => {
    const { env } = childEnvironment({ PATH: '/bin', LANG: 'C', UNSET: undefined }, ['*'])
    expect(Object.keys(env).sort()).toEqual(['LANG', 'PATH'])
  })
})
