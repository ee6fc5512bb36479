import { createInterface } from 'node:readline'
import type { ElicitationAnswer, ElicitationRequest, ElicitationValue, McpElicitationService } from '@mcp-bridge/plugin'
import { escapeControls } from '@mcp-bridge/process'
import { fieldPrompt, parseFieldInput } from './elicitation-input.ts'
import { InputEnded, lineQueue } from './terminal-lines.ts'

export interface TerminalElicitationOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean }
  /** Where the questions go: stderr for the CLI, whose stdout carries data. */
  output: NodeJS.WritableStream
}

/**
 * The reference `mcpElicitation` service: a terminal prompt, form and URL modes. It says which
 * server asks (client/elicitation: "MUST ... make it clear which server is requesting
 * information"), lets the person decline or cancel, shows a form's answers for review before
 * they are sent, and shows a URL with its host for the person to open themselves: it never opens
 * or fetches one. When its input is not a terminal nobody is there to answer: it declines.
 */
export function terminalElicitation(options: TerminalElicitationOptions): McpElicitationService {
  return {
    modes: ['form', 'url'],
    async elicit(request) {
      if (!options.input.isTTY) return { action: 'decline' }
      const rl = createInterface({ input: options.input, terminal: false })
      const lines = lineQueue(rl)
      const ask = (query: string) => {
        options.output.write(query)
        return lines.next(request.signal)
      }
      try {
        return await converse(request, ask, (line) => void options.output.write(`${line}\n`))
      } catch (error) {
        // The server, the call or the connection stopped waiting, or the input ended: nobody answers.
        if (request.signal.aborted || error instanceof InputEnded) return { action: 'cancel' }
        throw error
      } finally {
        rl.close()
      }
    },
  }
}

/** The dialogue itself, over any line source: for the terminal above and for tests. */
export async function converse(request: ElicitationRequest, ask: (query: string) => Promise<string>, say: (line: string) => void): Promise<ElicitationAnswer> {
  say(`\nMCP server "${request.serverName}" asks: ${escapeControls(request.message)}`)
  if (request.mode === 'url') {
    say(`It asks you to open this URL yourself (host ${escapeControls(request.domain)}); nothing is opened for you:\n  ${escapeControls(request.url)}`)
    return choice(await ask('Will you open it? [y = accept, n = decline, Enter = cancel]: '))
  }
  const start = choice(await ask('Answer the form? [y = fill it in, n = decline, Enter = cancel]: '))
  if (start.action !== 'accept') return start
  for (;;) {
    const content: Record<string, ElicitationValue> = {}
    for (const field of request.fields) {
      for (;;) {
        const parsed = parseFieldInput(field, await ask(fieldPrompt(field)))
        if (!parsed.ok) {
          say(`  ${parsed.problem}`)
          continue
        }
        if (parsed.value !== undefined) content[field.name] = parsed.value
        break
      }
    }
    say(`Your answers: ${escapeControls(JSON.stringify(content))}`)
    const review = (await ask('Send them? [y = send, e = edit, n = decline, Enter = cancel]: ')).trim().toLowerCase()
    if (review === 'e') continue
    return review === 'y' ? { action: 'accept', content } : choice(review)
  }
}

function choice(text: string): ElicitationAnswer {
  const answer = text.trim().toLowerCase()
  return answer === 'y' ? { action: 'accept' } : answer === 'n' ? { action: 'decline' } : { action: 'cancel' }
}
