import { statSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { credentialsDir, fileCredentialStore } from '../src/credentials.ts'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})
async function store() {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-creds-'))
  dirs.push(dir)
  return { dir: join(dir, 'credentials'), store: fileCredentialStore(join(dir, 'credentials')) }
}

const record = (issuer: string, accessToken: string) => ({ issuer, client: { clientId: 'c' }, tokens: { 'https://mcp.example/mcp': { clientId: 'c', accessToken } } })

describe('the reference credential store', () => {
  it('keeps one 0600 file per issuer in a 0700 directory, and hands each record only to its issuer', async () => {
    const { dir, store: s } = await store()
    await s.save(record('https://a.example', 'token-a'))
    await s.save(record('https://b.example', 'token-b'))
    await s.save(record('https://a.example', 'token-a2'))
    const files = await readdir(dir)
    expect(files).toHaveLength(2)
    for (const file of files) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect((await s.load('https://a.example'))?.tokens['https://mcp.example/mcp']?.accessToken).toBe('token-a2')
    expect(await s.load('https://a.example/')).toBeUndefined()
    expect((await s.issuers()).sort()).toEqual(['https://a.example', 'https://b.example'])
    await s.delete('https://a.example')
    expect(await s.load('https://a.example')).toBeUndefined()
  })

  it('refuses a damaged file naming the file, never quoting it', async () => {
    const { dir, store: s } = await store()
    await s.save(record('https://a.example', 'token-a'))
    const [file] = await readdir(dir)
    await writeFile(join(dir, file!), '{"secret-canary": ')
    await expect(s.load('https://a.example')).rejects.toThrow(new RegExp(`the credential file .*${file} is not a credential record: remove it and sign in again$`))
    await expect(s.load('https://a.example')).rejects.not.toThrow(/secret-canary/)
  })

  it('lives in MCP_BRIDGE_CREDENTIALS_DIR, else under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(credentialsDir({ MCP_BRIDGE_CREDENTIALS_DIR: '/x' })).toBe('/x')
    expect(credentialsDir({ XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/mcp-bridge/credentials')
    expect(credentialsDir({ HOME: '/home/u' })).toBe('/home/u/.config/mcp-bridge/credentials')
  })
})
