/**
 * mcp-conformance: argv in, runs out, exit code back. Parsing is pure (`cli/parse.ts`); the run
 * itself (`cli/run.ts`) is loaded only once the command is more than --help or --version, so those
 * and usage errors answer without loading the runners (the bin answers a bare --version and
 * --help sooner still: cli/quick.ts). Exit codes: cli/help.ts, and the README's table.
 */
import { usageErrorText } from '@mcp-bridge/process'
import { helpText } from './cli/help.ts'
import { parseCommand } from './cli/parse.ts'
import { versionText } from './cli/tool.ts'
import type { Io } from './cli/io.ts'
import { EXIT } from './model.ts'

export { parseCommand, USAGE, type Command, type ParseResult } from './cli/parse.ts'
export type { Io } from './cli/io.ts'

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
  ...(process.stderr.isTTY ? { terminal: { columns: process.stderr.columns || 80 } } : {}),
}

/** Runs one invocation and returns its exit code. Never throws. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const parsed = parseCommand(argv, io.cwd)
  if (!parsed.ok) {
    io.stderr(usageErrorText('mcp-conformance', parsed.error))
    return EXIT.usage
  }
  const command = parsed.command
  if (command.kind === 'help') {
    io.stdout(helpText(command.topic))
    return EXIT.pass
  }
  if (command.kind === 'version') {
    io.stdout(versionText())
    return EXIT.pass
  }
  const { runCommand } = await import('./cli/run.ts')
  try {
    return await runCommand(command, io)
  } catch (error) {
    // Every input error is told in its own words before this; what reaches here is the kit's own
    // bug, still one line and exit 2, never a stack trace in place of the run's end.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    io.stderr(`mcp-conformance: the run failed (a bug in the kit: please report it): ${JSON.stringify(message).slice(1, -1)}\n`)
    return EXIT.usage
  }
}
