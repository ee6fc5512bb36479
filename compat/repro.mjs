// Pure: the one-line shell command that judges one set-up of servers.mjs as `npm run matrix` does,
// with the server's own command in it, run from the repository root (bash: the HTTP form waits for
// the port with /dev/tcp). Same options as the matrix (matrix.mjs passes them here), the same temp
// directory with hello.txt as the server's working directory and `{dir}`.
import { shellWord } from '../scripts/table-evidence.mjs'

/** The port an HTTP reproduction listens on: any free port does; this one is rarely taken. */
export const REPRO_PORT = 39071

/** `options`: { requestTimeoutMs, startupTimeoutMs } as the matrix ran. */
export function reproduction(server, transport, options) {
  const setup = server[transport]
  const port = String(REPRO_PORT)
  const fill = (value) => String(value).replaceAll('{port}', port)
  const env = Object.entries(setup.env ?? {}).map(([name, value]) => `${name}=${shellWord(fill(value))}`)
  // The entry is relative to compat/; the command runs in the temp directory, so it is spelled from $r.
  const serverCommand = ['node', ...setup.argv.map((part, i) => shellWord(i === 0 ? `{root}/compat/${part}` : fill(part)))]
  const kit = [
    '"$r/node_modules/.bin/mcp-conformance" server',
    `--timeout ${options.requestTimeoutMs} --startup-timeout ${options.startupTimeoutMs}`,
    ...(server.calls ?? []).map((call) => `--call ${shellWord(`${call.name}=${JSON.stringify(call.arguments)}`)}`),
  ]
  const prelude = 'r=$PWD d=$(mktemp -d) && echo hello > "$d/hello.txt" && cd "$d" &&'
  if (transport === 'stdio') return [prelude, ...env, ...kit, '--', ...serverCommand].join(' ')
  const url = `http://${setup.host ?? '127.0.0.1'}:${port}${setup.path}`
  const wait = `until (: >/dev/tcp/${setup.host ?? '127.0.0.1'}/${port}) 2>/dev/null; do sleep 0.2; done`
  return [prelude, '{', ...env, ...serverCommand, '& } &&', `${wait};`, ...kit, '--url', url, '; kill $!'].join(' ')
}
