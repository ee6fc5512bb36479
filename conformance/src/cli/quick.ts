/**
 * `--version` and `--help` without loading the parser's dependencies (the plugin, the SDK) or the
 * runners: the bin asks here first, and only a command line of exactly these shapes is answered.
 * Everything else, and these too, parse.ts decides the same way (cli-args.test.ts holds them equal).
 */
import { versionText } from './tool.ts'

/** The text for stdout, or undefined when the full CLI has to decide. */
export async function quickAnswer(argv: readonly string[]): Promise<string | undefined> {
  if (argv.length === 1 && argv[0] === '--version') return versionText()
  const help = (word: string | undefined) => word === '--help' || word === '-h'
  const [first, second] = argv
  // The help pages load only for a command line that may ask for one.
  const maybeHelp = (argv.length === 1 && (help(first) || first === 'help')) || (argv.length === 2 && (help(second) || first === 'help'))
  if (!maybeHelp) return undefined
  const { helpText, isHelpTopic } = await import('./help.ts')
  if (argv.length === 1 && (help(first) || first === 'help')) return helpText()
  if (argv.length === 2 && isHelpTopic(first) && help(second)) return helpText(first)
  if (argv.length === 2 && first === 'help' && isHelpTopic(second)) return helpText(second)
  return undefined
}
