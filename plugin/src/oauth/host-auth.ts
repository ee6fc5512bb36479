import type { CredentialStore, McpAuthService } from './contract.ts'
import { memoryStore } from './memory-store.ts'

/**
 * The host's `mcpAuth` service as one bridge instance sees it. index.ts binds the lookup to the
 * instance's config object, which reaches the transport unchanged: the connection code in between
 * need not know about sign-ins. Without the service, credentials are kept in memory for the
 * instance's lifetime (across its reconnections) and a sign-in is refused.
 */
const lookups = new WeakMap<object, () => McpAuthService | undefined>()
const fallbacks = new WeakMap<object, CredentialStore>()

export function bindHostAuth(config: object, lookup: () => McpAuthService | undefined): void {
  lookups.set(config, lookup)
}

export function hostAuthOf(config: object): { store: CredentialStore; signIn?: McpAuthService['signIn'] } {
  const service = lookups.get(config)?.()
  let store = service?.credentials
  if (!store) {
    store = fallbacks.get(config) ?? memoryStore()
    fallbacks.set(config, store)
  }
  const signIn = service?.signIn?.bind(service)
  return { store, ...(signIn ? { signIn } : {}) }
}
