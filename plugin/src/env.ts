import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio'
import { isSecretName, isSecretValue, matchesGlob } from '@mcp-bridge/process'

/**
 * The environment a stdio server is started with, by allowlist: the SDK's small safe base
 * (HOME, LOGNAME, PATH, SHELL, TERM, USER on POSIX), then the parent's variables named by the
 * instance's `inheritEnv` (names or `*` globs), then its explicit `env` on top.
 *
 * The seed passed the whole parent environment minus credential-looking names and values. A
 * denylist can never be complete: STRIPE_SK, HF_HUB_TOK, MYSQL_PWD, PASSPHRASE, API_CREDS, a
 * DATABASE_URL with ?password= and a Slack webhook URL all reached servers through it.
 */

/** Names that can hijack the child's loader: never inherited, only set explicitly in `env`. */
export const LOADER_HIJACK = /^(NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|DYLD_.*)$/i

/** `inheritEnv` entries: a variable name, or a glob of one with `*`. */
export const INHERIT_PATTERN = /^[A-Za-z0-9_*]+$/

export interface ChildEnvironment {
  env: Record<string, string>
  /** Inherited variables whose name or value looks like a credential (the caller warns once). */
  secretLooking: string[]
}

/** Pure: `parent` is usually `process.env`; `explicit` always wins. */
export function childEnvironment(
  parent: Record<string, string | undefined>,
  inherit: readonly string[] = [],
  explicit: Record<string, string> = {},
): ChildEnvironment {
  const env: Record<string, string> = {}
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = parent[name]
    // A value starting with "()" is an exported shell function (the SDK skips them too).
    if (value !== undefined && !value.startsWith('()')) env[name] = value
  }
  const secretLooking: string[] = []
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || LOADER_HIJACK.test(name) || !inherit.some((glob) => matchesGlob(glob, name))) continue
    env[name] = value
    if (isSecretName(name) || isSecretValue(value)) secretLooking.push(name)
  }
  return { env: { ...env, ...explicit }, secretLooking: secretLooking.sort() }
}
