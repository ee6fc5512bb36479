/**
 * Pure: the help pages, the global one and one per command. Light on purpose: `--help` is
 * answered from here without loading the parser's dependencies or the runners (quick.ts).
 */
import { MAX_TIMER_MS } from '@mcp-bridge/process'
import { DEFAULT_JOBS_CAP, MAX_JOBS } from '../client/pool.ts'
import { DEFAULT_SERVER_OPTIONS } from '../server/options.ts'
import { SPEC_VERSIONS } from './spec-versions.ts'

/** The commands with a help page of their own. */
export const HELP_TOPICS = ['server', 'client', 'judge', 'list'] as const
export type HelpTopic = (typeof HELP_TOPICS)[number]

const SYNOPSIS = {
  default: `  mcp-conformance [run options] [--transport T] [--jobs N] [--timeout MS] [--startup-timeout MS]
      the built-in default: every client scenario against the mcp-bridge plugin, then the server
      checks against server-everything over stdio (baseline: examples/default.baseline.yaml)
`,
  server: `  mcp-conformance server [run options] [server options] --url URL [--header K=V ...]
  mcp-conformance server [run options] [server options] -- COMMAND [ARGS...]
`,
  client: `  mcp-conformance client [run options] [--transport T] [--scenario ID ...] [--update-snapshots] [--shard I/N]
                          [--jobs N] [--driver COMMAND]
`,
  judge: `  mcp-conformance judge [run options] --wire FILE [--scenario ID]
                          verdicts from a wire log mcp-fixture --wire FILE recorded while any client
                          talked to it (with --scenario, also that scenario's received bounds)
`,
  list: `  mcp-conformance list                 client scenarios, one "id<TAB>title" per line on stdout
`,
}

const ABOUT: Record<HelpTopic, string> = {
  server: `Judges any MCP server, a command over stdio or a Streamable HTTP URL, against the spec revision it
negotiates. No tool of yours is called unless --call names it.
`,
  client: `Runs the scenario files (fixture servers that misbehave on purpose) against a client: the mcp-bridge
plugin, or any MCP client behind --driver.
`,
  judge: `Judges what a client sent to a fixture server, from the wire log the fixture wrote.
`,
  list: `Prints the client scenarios, one "id<TAB>title" per line on stdout.
`,
}

const RUN_OPTIONS = `Run options (the default run, server, client and judge):
  --report-dir DIR        where results.json, junit.xml and report.html are written (default ./reports)
  --baseline FILE         YAML file of expected failures ("<suite>:<check>"); stale entries fail the run
  --write-baseline FILE   after the run, write its failures to FILE as a baseline (reasons kept from
                          --baseline); not written when a check could not run
  --compare FILE          a previous results.json: the summary and report.html show what changed
                          (new failures, fixed checks, new and removed checks)
  --merge LABEL=FILE      put the suites of another run's results.json beside this run's, ids prefixed
                          with LABEL/ and their expected failures kept (repeatable): e.g. the client
                          scenarios run with the plugin hosted by the DeepSeek harness (hosts/dsh/kit.mjs)
  --summary-md FILE       also write a Markdown summary of the run (e.g. to $GITHUB_STEP_SUMMARY)
  --annotations FORMAT    github: print ::error/::warning/::notice workflow commands for the checks
                          that did not pass, and for a baseline or option that stops the run, on
                          stdout; none (the default): print nothing on stdout
`

const CLIENT_OPTIONS = `Client options (the default run, client):
  --transport T           stdio, http or all (default all)
  --scenario ID           client: run only this scenario (repeatable)
  --update-snapshots      client: rewrite the transcript snapshots (refused when CI=true)
  --shard I/N             client: run the I-th of N slices of the scenarios (1-based)
  --jobs N                scenario runs at once, 1 to ${MAX_JOBS} (default: two per core, at most
                          ${DEFAULT_JOBS_CAP}); 1 runs them one after another. Verdicts and the reports' order
                          do not depend on N; a scenario that sets hostEnv always runs alone
  --driver COMMAND        client: judge the MCP client behind this driver program (JSON lines on its
                          stdin/stdout: FORMAT.md in this package; a complete one to copy is its
                          drivers/sdk-client.mjs) instead of the mcp-bridge plugin; it is judged
                          on what every MCP client must do, the rest is reported skipped
`

const JUDGE_OPTIONS = `Judge options:
  --wire FILE             judge: the wire log to judge
  --scenario ID           judge: the scenario the fixture served (adds its received bounds)
`

const SERVER_OPTIONS = `Server options (the default run, server):
  --timeout MS            per-request timeout, 1 to ${MAX_TIMER_MS} (default ${DEFAULT_SERVER_OPTIONS.requestTimeoutMs})
  --startup-timeout MS    initialize timeout, 1 to ${MAX_TIMER_MS} (default ${DEFAULT_SERVER_OPTIONS.startupTimeoutMs})
  --url URL               server: judge a Streamable HTTP server
  --header K=V            server: an HTTP header for every request to --url (repeatable)
  --call NAME=JSON        server: allow calling tool NAME with these arguments (repeatable); no other
                          tool is called
  --server-name NAME      server: serverName for the bridge projection (default: from serverInfo.name)
  --spec-version V        server: judge exactly revision V (${SPEC_VERSIONS.join(', ')}),
                          or each of them in turn with "all" (one suite per revision, side by side in
                          every report); default: ask for the newest legacy revision and follow the
                          server's counter-offer, and judge a server that speaks only 2026-07-28 by it
`

const OUTPUT = `Progress and the summary go to stderr; stdout carries only list, --help, --version and annotations.
`

const EXIT_CODES = `Exit codes:
  0         every check passed (warnings and skips allowed)
  1         a check failed (a server that starts and ends before answering initialize included),
            or a baseline entry is stale
  2         no verdict: invalid usage, a baseline that is missing or invalid, reports that cannot be
            written, the kit cannot load, or a check that could not run (a server command that
            cannot be started, a URL that cannot be reached, a harness error)
  130, 143  stopped by SIGINT or SIGTERM (the servers it started are stopped first)
`

/** `mcp-conformance --help`: every command and option. */
export const USAGE = `Usage:
${SYNOPSIS.default}${SYNOPSIS.server}${SYNOPSIS.client}${SYNOPSIS.judge}${SYNOPSIS.list}  mcp-conformance [COMMAND] --help | --version
                          (with a command: only that command's options)

${RUN_OPTIONS}${CLIENT_OPTIONS}${JUDGE_OPTIONS}${SERVER_OPTIONS}
${OUTPUT}${EXIT_CODES}`

const PAGES: Record<HelpTopic, string> = {
  server: `Usage:\n${SYNOPSIS.server}\n${ABOUT.server}\n${SERVER_OPTIONS.replace(/ {2}server: /g, '  ')}${RUN_OPTIONS}\n${OUTPUT}${EXIT_CODES}`,
  client: `Usage:\n${SYNOPSIS.client}\n${ABOUT.client}\n${CLIENT_OPTIONS.replace(/ {2}client: /g, '  ')}${RUN_OPTIONS}\n${OUTPUT}${EXIT_CODES}`,
  judge: `Usage:\n${SYNOPSIS.judge}\n${ABOUT.judge}\n${JUDGE_OPTIONS.replace(/ {2}judge: /g, '  ')}${RUN_OPTIONS}\n${OUTPUT}${EXIT_CODES}`,
  list: `Usage:\n${SYNOPSIS.list}\n${ABOUT.list}`,
}

/** The help page of a command, or the global one. */
export function helpText(topic?: HelpTopic): string {
  return topic ? PAGES[topic] : USAGE
}

export const isHelpTopic = (word: string | undefined): word is HelpTopic => HELP_TOPICS.some((topic) => topic === word)
