#!/usr/bin/env node
/* global setInterval */
// Drivers that attack the kit rather than drive a client: argv[2] = mode.
// - endless-line: one line without end on stdout (ENDLESS_MB mebibytes, streamed, no newline), then silence until stdin ends.
// - refuses: answers every request with an error at once (the control of endless-line: the same run, without the attack).
// - stubborn-tree: ignores SIGTERM, SIGINT, SIGHUP and stdin EOF, starts a grandchild in a session of its own (setsid),
//   which ignores them too, and answers connect and list, so that the run goes on while the tree lives.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const mode = process.argv[2]
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)

if (mode === 'endless-line') {
  const chunk = Buffer.alloc(1 << 20, 'x')
  let left = Number(process.env.ENDLESS_MB ?? 200)
  const pump = () => {
    while (left > 0) {
      left--
      if (!process.stdout.write(chunk)) return void process.stdout.once('drain', pump)
    }
  }
  pump()
  // Ends with its stdin, as a driver should: the attack is the line, not the exit.
  process.stdin.on('end', () => process.exit(0)).resume()
}

if (mode === 'refuses') {
  createInterface({ input: process.stdin }).on('line', (line) => send({ id: JSON.parse(line).id, ok: false, error: 'refused' }))
}

if (mode === 'stubborn-tree') {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => {})
  const ignoring = `process.on('SIGTERM', () => {}); process.on('SIGINT', () => {}); process.on('SIGHUP', () => {}); setInterval(() => {}, 60_000)`
  const grandchild = spawn('setsid', [process.execPath, '-e', ignoring], { stdio: 'ignore' })
  process.stderr.write(`grandchild ${grandchild.pid}\n`)
  createInterface({ input: process.stdin }).on('line', (line) => {
    const { id, op } = JSON.parse(line)
    if (op === 'connect') send({ id, ok: true, features: [] })
    else if (op === 'list') send({ id, ok: true, tools: [] })
    // Anything else is never answered: the run waits on its bounds while the test ends the kit.
  })
  // stdin's end is ignored too: the kit must end this tree itself.
  setInterval(() => {}, 60_000)
}
