import { dirname, resolve } from 'node:path'
import { createLearningRedactor, readInputFile, startDeadline } from '@mcp-bridge/process'
import { signInToServer, signOutOfServer } from '@mcp-bridge/plugin/oauth'
import { credentialsDir, fileCredentialStore } from '../credentials.ts'
import { MAX_CONFIG_BYTES } from '../loader/loader.ts'
import { BRIDGE_PACKAGE } from '../loader/names.ts'
import { parseConfig } from '../loader/parse.ts'
import { browserCommand, openBrowser } from './open-browser.ts'

/** The part of run.ts's CliIo a sign-in uses (declared here: run.ts imports this module). */
export interface LoginIo {
  stdout(text: string): void
  stderr(line: string): void
  env: Readonly<Record<string, string | undefined>>
  onStop(handler: () => void): () => void
}

/** How long `login` waits for the person (the browser's redirect) before it gives up. */
export const LOGIN_TIMEOUT_MS = 5 * 60_000

/**
 * `mcp-bridge login SERVER` and `logout SERVER`: the sign-in of the bridge entry whose serverName
 * is SERVER, its credentials in the reference store (credentials.ts). The authorization URL goes to
 * stderr, and to the person's browser where one can be opened (open-browser.ts); the redirect
 * comes back to the bridge's own loopback listener.
 * Every message passes the redactor that learned the exchange's secrets.
 */
export async function login(file: string, serverName: string, io: LoginIo, action: 'login' | 'logout'): Promise<number> {
  const redact = createLearningRedactor()
  let raw: unknown
  try {
    raw = await entryConfig(file, serverName, io)
  } catch (error) {
    io.stderr(`mcp-bridge: ${(error as Error).message}`)
    return 1
  }
  const store = fileCredentialStore(credentialsDir(io.env))
  if (action === 'logout') {
    try {
      const { removed } = await signOutOfServer(raw, store)
      io.stdout(removed ? `signed out of server "${serverName}"\n` : `no credentials were stored for server "${serverName}"\n`)
      return 0
    } catch (error) {
      io.stderr(`mcp-bridge: logout ${serverName} failed: ${redact(firstLine(error))}`)
      return 1
    }
  }
  const interrupted = new AbortController()
  const offStop = io.onStop(() => interrupted.abort(new Error('interrupted (SIGINT or SIGTERM)')))
  const deadline = startDeadline(LOGIN_TIMEOUT_MS, [interrupted.signal])
  const timedOut = () => deadline.signal.aborted && !interrupted.signal.aborted
  try {
    await signInToServer(raw, {
      store,
      redact,
      signal: deadline.signal,
      signIn: ({ url }) => {
        io.stderr(`mcp-bridge: to sign in to server "${serverName}", open this URL in a browser (waiting up to ${LOGIN_TIMEOUT_MS / 60_000} minutes):`)
        io.stderr(url)
        const command = browserCommand(url, io.env, process.platform)
        if (command) openBrowser(command, (reason) => io.stderr(`mcp-bridge: could not open a browser (${redact(reason.split('\n')[0]!)}); open the URL above`))
      },
    })
    io.stdout(`signed in to server "${serverName}"\n`)
    return 0
  } catch (error) {
    const reason = timedOut() ? `no sign-in came back within ${LOGIN_TIMEOUT_MS / 60_000} minutes` : firstLine(error)
    io.stderr(`mcp-bridge: login ${serverName} failed: ${redact(reason)}`)
    return 1
  } finally {
    deadline.clear()
    offStop()
  }
}

/** The config of the enabled bridge entry named `serverName` in `file`, references resolved. */
async function entryConfig(file: string, serverName: string, io: LoginIo): Promise<unknown> {
  const text = await readInputFile(file, { maxBytes: MAX_CONFIG_BYTES, what: 'the config file' })
  const parsed = parseConfig(text, { baseDir: dirname(resolve(file)), env: io.env, builtins: new Set([BRIDGE_PACKAGE]) })
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error.message}`)
  const entry = parsed.entries.find((e) => e.key === BRIDGE_PACKAGE && !e.disabled && (e.config as { serverName?: unknown } | null)?.serverName === serverName)
  if (!entry) throw new Error(`no enabled bridge entry in ${file} has serverName "${serverName}"`)
  return entry.config
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!
}
