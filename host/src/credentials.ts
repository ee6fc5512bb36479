import { createHash, randomBytes } from 'node:crypto'
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { CredentialStore, StoredCredentials } from '@mcp-bridge/plugin'

/** The largest credential file read back: a record is a few KB; anything larger is not ours. */
const MAX_RECORD_BYTES = 1024 * 1024

/**
 * Where the reference host keeps OAuth credentials: `MCP_BRIDGE_CREDENTIALS_DIR`, else
 * `$XDG_CONFIG_HOME/mcp-bridge/credentials`, else `~/.config/mcp-bridge/credentials`.
 */
export function credentialsDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.MCP_BRIDGE_CREDENTIALS_DIR) return env.MCP_BRIDGE_CREDENTIALS_DIR
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'mcp-bridge', 'credentials')
}

/**
 * The reference credential store (plugin/src/oauth/contract.ts `CredentialStore`): one JSON file per issuer,
 * named by a hash of the issuer (an issuer URL is no file name), mode 0600 in a 0700 directory,
 * replaced whole by a rename so a crash leaves the old record or the new one. Its contents are
 * secrets: this module never logs them, and its errors name the file, never what is in it.
 */
export function fileCredentialStore(dir: string): CredentialStore {
  const fileOf = (issuer: string) => join(dir, `${createHash('sha256').update(issuer).digest('hex').slice(0, 32)}.json`)
  const read = async (file: string): Promise<StoredCredentials | undefined> => {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw new Error(`cannot read the credential file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`)
    }
    if (text.length > MAX_RECORD_BYTES) throw new Error(`the credential file ${file} is larger than ${MAX_RECORD_BYTES} bytes: remove it and sign in again`)
    try {
      const record = JSON.parse(text) as StoredCredentials
      if (typeof record.issuer !== 'string' || typeof record.tokens !== 'object' || record.tokens === null) throw new Error('shape')
      return record
    } catch {
      throw new Error(`the credential file ${file} is not a credential record: remove it and sign in again`)
    }
  }
  return {
    async load(issuer) {
      const record = await read(fileOf(issuer))
      // Another issuer's record under a colliding name is never handed out for this one.
      return record?.issuer === issuer ? record : undefined
    },
    async save(credentials) {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const file = fileOf(credentials.issuer)
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
      await writeFile(temporary, `${JSON.stringify(credentials)}\n`, { mode: 0o600, flag: 'wx' })
      // The mode of a file created under a permissive umask is set again, to be sure.
      await chmod(temporary, 0o600)
      await rename(temporary, file)
    },
    async delete(issuer) {
      await rm(fileOf(issuer), { force: true })
    },
    async issuers() {
      const names = await readdir(dir).catch(() => [] as string[])
      const records = await Promise.all(names.filter((n) => /^[0-9a-f]{32}\.json$/.test(n)).map((n) => read(join(dir, n)).catch(() => undefined)))
      return records.flatMap((record) => (record ? [record.issuer] : []))
    },
  }
}
