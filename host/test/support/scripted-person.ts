/**
 * A person at the terminal, as a script: answers each question with the next line, records what
 * the prompt showed, and fails a prompt that asks more than the script holds.
 */
export function scriptedPerson(lines: string[]) {
  const shown: string[] = []
  return {
    shown,
    ask: async (query: string) => {
      shown.push(query)
      const line = lines.shift()
      if (line === undefined) throw new Error(`asked more than the script holds: ${query}`)
      return line
    },
    say: (line: string) => void shown.push(line),
  }
}
