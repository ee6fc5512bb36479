import { join } from 'node:path'
import { makeTempDir } from '@mcp-bridge/process'
import { fixtureCommand, readWireFile, startHttpFixture, type Behaviour, type HttpFixture, type WireEntry } from '@mcp-bridge/fixtures-server'
import type { ServerTarget } from './adapter.ts'

/**
 * The fixture side of one run: where its wire log and start counter live, and how to crash or
 * restart it. stdio fixtures are spawned by the client under test; HTTP fixtures run in-process.
 */
export class FixtureHandle {
  /** Removed after the run is judged, or by the process's exit and signal handling if it never is. */
  private readonly temp = makeTempDir('kit-fixture-')
  readonly dir = this.temp.path
  readonly wireFile = join(this.dir, 'wire.jsonl')
  readonly stateFile = join(this.dir, 'state.json')
  private http?: HttpFixture
  private port?: number
  /** Listeners whose end was already told. */
  private readonly over = new WeakSet<HttpFixture>()
  /** Told when the HTTP listener starts or ends, for the run's timeline (stdio processes are the client's). */
  onLifecycle?: (what: 'start' | 'exit', text: string) => void

  private readonly behaviour: Behaviour

  constructor(
    behaviour: Behaviour,
    readonly transport: 'stdio' | 'http',
    /** The run's protocol era (the scenario's `eras`): the fixture is started speaking it. */
    era: Behaviour['era'] = 'legacy',
  ) {
    this.behaviour = { ...behaviour, era }
  }

  async target(): Promise<ServerTarget> {
    if (this.transport === 'stdio') {
      const { command, args } = fixtureCommand(this.behaviour, { transport: 'stdio' })
      return { transport: 'stdio', command, args, env: { MCP_FIXTURE_WIRE: this.wireFile, MCP_FIXTURE_STATE: this.stateFile } }
    }
    await this.startHttp()
    return { transport: 'http', url: this.http!.url }
  }

  wire(): WireEntry[] {
    return readWireFile(this.wireFile)
  }

  /** HTTP: the listener goes away as in a crash. stdio: the caller kills the client's child. */
  async kill(): Promise<void> {
    await this.http?.close()
    this.ended(this.http, 'HTTP server closed, as in a crash')
  }

  /** HTTP: a fresh fixture at the same URL (stdio fixtures are restarted by the client). */
  async restart(): Promise<void> {
    if (this.transport !== 'http') return
    // A scripted crash may still be shutting down (draining, closing sockets) when the scenario
    // asks for the restart; the port is free only once the old listener has closed.
    const previous = this.http
    if (previous && !this.over.has(previous)) await previous.close()
    await this.startHttp()
  }

  async close(): Promise<void> {
    await this.http?.close()
    this.ended(this.http, 'HTTP server closed')
  }

  /** After the run has been judged: the wire log and start counter are no longer needed. */
  removeFiles(): void {
    this.temp.remove()
  }

  private async startHttp(): Promise<void> {
    const http = await startHttpFixture(this.behaviour, { wireFile: this.wireFile, stateFile: this.stateFile, port: this.port })
    this.http = http
    this.port = http.port
    this.onLifecycle?.('start', 'HTTP server listening')
    void http.exited.then((code) => this.ended(http, `HTTP server exited by script (code ${code})`))
  }

  private ended(http: HttpFixture | undefined, text: string): void {
    if (!http || this.over.has(http)) return
    this.over.add(http)
    this.onLifecycle?.('exit', text)
  }
}
