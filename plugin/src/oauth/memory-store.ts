import type { CredentialStore, StoredCredentials } from './contract.ts'

/** Credentials for as long as the process runs: the store of a host without a credential service. */
export function memoryStore(): CredentialStore {
  const records = new Map<string, StoredCredentials>()
  return {
    load: async (issuer) => structuredClone(records.get(issuer)),
    save: async (credentials) => void records.set(credentials.issuer, structuredClone(credentials)),
    delete: async (issuer) => void records.delete(issuer),
    issuers: async () => [...records.keys()],
  }
}
