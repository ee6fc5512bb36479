import type { Interface } from 'node:readline'

/**
 * The lines typed, in order, whether or not a question is pending: a person who pastes several
 * answers at once has them all read. Input that ends answers nothing more: InputEnded. Shared by
 * the terminal prompts (elicitation.ts, sampling.ts).
 */
export function lineQueue(rl: Interface) {
  const ready: string[] = []
  const waiting: Array<(line: string | undefined) => void> = []
  let ended = false
  rl.on('line', (line) => (waiting.length ? waiting.shift()!(line) : ready.push(line)))
  rl.on('close', () => {
    ended = true
    for (const wake of waiting.splice(0)) wake(undefined)
  })
  return {
    next(signal: AbortSignal): Promise<string> {
      if (ready.length) return Promise.resolve(ready.shift()!)
      if (ended) return Promise.reject(new InputEnded())
      return new Promise((resolve, reject) => {
        const onAbort = () => reject(signal.reason)
        if (signal.aborted) return onAbort()
        signal.addEventListener('abort', onAbort, { once: true })
        waiting.push((line) => {
          signal.removeEventListener('abort', onAbort)
          if (line === undefined) reject(new InputEnded())
          else resolve(line)
        })
      })
    },
  }
}

export class InputEnded extends Error {}
