import { createInterface } from 'node:readline'
import type { McpSamplingService, SamplingReply, SamplingRequest } from '@mcp-bridge/plugin'
import { escapeControls } from '@mcp-bridge/process'
import { InputEnded, lineQueue } from './terminal-lines.ts'

export interface TerminalSamplingOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean }
  /** Where the request is shown: stderr for the CLI, whose stdout carries data. */
  output: NodeJS.WritableStream
}

/** The model name a server is told: the reply came from the person at the terminal. */
export const OPERATOR_MODEL = 'operator (mcp-bridge terminal)'
/** The line that ends a typed reply. */
export const END_OF_REPLY = '.'

/**
 * The reference `mcpSampling` service: the operator is the model. Its `approve` hook shows which
 * server asks and what (the bridge has bounded and redacted it), asks whether to answer and, if
 * so, reads the reply typed or pasted up to a line holding only ".", which `createMessage` then
 * returns. When its input is not a terminal nobody is there: every request is refused (-1).
 */
export function terminalSampling(options: TerminalSamplingOptions): McpSamplingService {
  // approve and createMessage are handed the same request object: the reply waits here between them.
  const replies = new WeakMap<SamplingRequest, string>()
  return {
    async approve(request) {
      if (!options.input.isTTY) return false
      const rl = createInterface({ input: options.input, terminal: false })
      const lines = lineQueue(rl)
      try {
        const reply = await converseSampling(request, (query) => (options.output.write(query), lines.next(request.signal)), (line) => void options.output.write(`${line}\n`))
        if (reply === undefined) return false
        replies.set(request, reply)
        return true
      } catch (error) {
        // The server, the call or the connection stopped waiting, or the input ended: refused.
        if (request.signal.aborted || error instanceof InputEnded) return false
        throw error
      } finally {
        rl.close()
      }
    },
    async createMessage(request): Promise<SamplingReply> {
      const text = replies.get(request)
      if (text === undefined) throw new Error('no reply was typed for this request (the terminal prompt answers only requests it approved)')
      replies.delete(request)
      return { text, model: OPERATOR_MODEL, stopReason: 'endTurn' }
    },
  }
}

/** The dialogue itself, over any line source: the reply typed, or undefined when refused. */
export async function converseSampling(request: SamplingRequest, ask: (query: string) => Promise<string>, say: (line: string) => void): Promise<string | undefined> {
  say(`\nMCP server "${request.serverName}" asks for a model reply (at most ${request.maxTokens} tokens${request.model ? `, model ${escapeControls(request.model)}` : ''}).`)
  if (request.systemPrompt) say(`  system: ${escapeControls(request.systemPrompt)}`)
  for (const message of request.messages) say(`  ${message.role}: ${escapeControls(message.text)}`)
  const answer = (await ask('Answer it yourself? [y = type the reply, anything else = refuse]: ')).trim().toLowerCase()
  if (answer !== 'y') return undefined
  say(`Type or paste the reply; a line holding only "${END_OF_REPLY}" ends it.`)
  const reply: string[] = []
  for (;;) {
    const line = await ask('')
    if (line === END_OF_REPLY) return reply.join('\n')
    reply.push(line)
  }
}
