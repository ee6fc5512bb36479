import type { DriverAuth } from './protocol.ts'

/**
 * Pure: a scenario's `client.auth` (the plugin's words: secrets named by host variable) as the
 * driver protocol's `auth`, secrets resolved from `env` (the run's hostEnv is planted there), so
 * a driver of any client needs no knowledge of our configuration. Undefined when the scenario
 * configures no auth; a named variable that is unset is the scenario's error, said in one line.
 */
export function driverAuth(auth: unknown, env: NodeJS.ProcessEnv): DriverAuth | undefined {
  if (auth === undefined) return undefined
  if (typeof auth !== 'object' || auth === null) throw new Error(`client.auth: expected an object, got ${typeof auth}`)
  const a = auth as Record<string, unknown>
  const text = (field: string): string | undefined => (typeof a[field] === 'string' ? (a[field] as string) : undefined)
  const secret = (field: string): string => {
    const name = text(field)
    if (!name) throw new Error(`client.auth.${field}: required with auth type "${String(a.type)}"`)
    const value = env[name]
    if (!value) throw new Error(`client.auth.${field}: names ${name}, which the scenario's hostEnv does not set; add it there`)
    return value
  }
  const common = { ...(text('clientId') ? { clientId: text('clientId')! } : {}), ...(text('issuer') ? { issuer: text('issuer')! } : {}), ...(text('scope') ? { scope: text('scope')! } : {}) }
  switch (a.type) {
    case 'bearer':
      return { grant: 'bearer', token: secret('tokenEnv') }
    case 'client_credentials':
      return { grant: 'client_credentials', ...common, clientId: text('clientId') ?? '', clientSecret: secret('clientSecretEnv') }
    case 'private_key_jwt':
      return { grant: 'private_key_jwt', ...common, clientId: text('clientId') ?? '', privateKey: secret('privateKeyEnv'), algorithm: text('algorithm') ?? 'RS256' }
    case 'authorization_code':
      return { grant: 'authorization_code', ...common, ...(text('clientSecretEnv') ? { clientSecret: secret('clientSecretEnv') } : {}) }
    default:
      throw new Error(`client.auth.type: expected bearer, client_credentials, private_key_jwt or authorization_code, got ${JSON.stringify(a.type)}`)
  }
}
