/**
 * Start-to-ready timings of a fixture, median of RUNS runs each:
 *   node --import tsx fixtures-server/bench/ready.ts [runs]
 * stdio: spawn until the SDK client finished initialize. HTTP process: spawn until the readiness
 * line, and until a client finished initialize. HTTP in process: startHttpFixture until resolved,
 * and until a client finished initialize. bench/startup.ts imports `stdioReady` to compare the
 * built fixture with the tsx one; the timings below run only when this file is the entry point.
 */
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { fixtureCommand, loadBehaviourFile, spawnHttpFixture, startHttpFixture, type FixtureCommand } from '../src/index.ts'

/** The behaviour every timing here starts: a handful of tools, nothing scripted. */
export const READY_BEHAVIOUR = fileURLToPath(new URL('../examples/names.yaml', import.meta.url))
const file = READY_BEHAVIOUR

const client = () => new Client({ name: 'bench', version: '1.0.0' })
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Spawn until the SDK client has the initialize reply (and sent `initialized`), in ms; closes the child. */
export async function stdioReady(command: FixtureCommand = fixtureCommand(file)): Promise<number> {
  const start = performance.now()
  const c = client()
  await c.connect(new StdioClientTransport({ ...command, stderr: 'ignore' }))
  const ready = performance.now() - start
  await c.close()
  return ready
}

/** Start-to-listening and start-to-initialized of one HTTP fixture, however it is started. */
async function timeHttp(startFixture: () => Promise<{ url: string; close(): Promise<void> }>): Promise<[number, number]> {
  const start = performance.now()
  const fixture = await startFixture()
  const listening = performance.now() - start
  const c = client()
  await c.connect(new StreamableHTTPClientTransport(new URL(fixture.url)))
  const connected = performance.now() - start
  await c.close()
  await fixture.close()
  return [listening, connected]
}

const httpProcess = () => timeHttp(() => spawnHttpFixture(file))

async function httpInProcess(): Promise<[number, number]> {
  const behaviour = loadBehaviourFile(file)
  return timeHttp(() => startHttpFixture(behaviour))
}

async function main(runs: number): Promise<void> {
  const results: Record<string, number[]> = {}
  const add = (name: string, value: number) => (results[name] ??= []).push(value)
  for (let i = 0; i < runs; i++) {
    add('stdio: spawn -> initialized', await stdioReady())
    const [line, connected] = await httpProcess()
    add('http process: spawn -> readiness line', line)
    add('http process: spawn -> initialized', connected)
    const [listening, initialized] = await httpInProcess()
    add('http in-process: start -> listening', listening)
    add('http in-process: start -> initialized', initialized)
  }
  const width = Math.max(...Object.keys(results).map((name) => name.length))
  console.log(`median of ${runs} runs (min..max), ms`)
  for (const [name, values] of Object.entries(results)) {
    const fmt = (n: number) => n.toFixed(0)
    console.log(`${name.padEnd(width)}  ${fmt(median(values)).padStart(5)}  (${fmt(Math.min(...values))}..${fmt(Math.max(...values))})`)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(Number(process.argv[2] ?? 10))
