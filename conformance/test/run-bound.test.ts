import { describe, expect, it } from 'vitest'
import type { ClientAdapter, ClientSession } from '../src/client/adapter.ts'
import { parseScenario } from '../src/client/load.ts'
import { HARNESS_MS, LOAD_ALLOWANCE_MS, LOAD_FACTOR, scenarioBound, SETTLE_SLACK_MS, settingsOf, type BoundSettings } from '../src/client/run-bound.ts'
import { boundDefaults, runScenario } from '../src/client/run-scenario.ts'

const defaults: BoundSettings = { connectTimeoutMs: 30_000, toolCallTimeoutMs: 60_000, maxTotalTimeoutMs: 600_000, killGraceMs: 2_000 }
const DRIVER = { connectMs: 20_000, listMs: 10_000, callMs: 20_000, closeMs: 10_000 }

function scenario(yaml: string) {
  return parseScenario(`id: t\ntitle: t\nspec: [{ ref: r }]\n${yaml}`, '/s/t.yaml')
}

/** What a bound adds to the waits it derives: the load factor, the harness and the allowance. */
const outer = (derived: number) => LOAD_FACTOR * derived + HARNESS_MS + LOAD_ALLOWANCE_MS

describe('the outer bound of a scenario run (pure)', () => {
  it('is the start and the dispose, from the scenario settings over the defaults, plus the allowances', () => {
    const close = 3 * 500 + 2_000
    const bound = scenarioBound(scenario('server: {}\nclient: { connectTimeoutMs: 300, killGraceMs: 500 }\n'), defaults)
    expect(bound.ms).toBe(outer(300 + close + close))
    expect(bound.terms).toContain('start 3800')
    expect(bound.disposeMs).toBe(LOAD_FACTOR * close + HARNESS_MS)
  })

  it('takes the plugin defaults where the scenario sets nothing', () => {
    expect(settingsOf({}, defaults)).toEqual(defaults)
    expect(settingsOf({ connectTimeoutMs: -1, toolCallTimeoutMs: 'x', killGraceMs: 0 }, defaults)).toEqual(defaults)
    expect(settingsOf({ toolCallTimeoutMs: 250, maxTotalTimeoutMs: 900 }, defaults)).toMatchObject({ toolCallTimeoutMs: 250, maxTotalTimeoutMs: 900 })
  })

  it('adds each step: a call to its timeout, or to the hard ceiling when the server keeps it alive; waits to theirs; a dispose to the close', () => {
    const base = scenario('server: { tools: [{ name: a }] }\nclient: { connectTimeoutMs: 100, killGraceMs: 100 }\n')
    const steps = (yaml: string) => scenarioBound(scenario(`server: { tools: [{ name: plain }, { name: slow, progress: { intervalMs: 10, durationMs: 100 } }, { name: task, task: {} }] }\nclient: { connectTimeoutMs: 100, killGraceMs: 100, toolCallTimeoutMs: 200, maxTotalTimeoutMs: 5000 }\nsteps:\n${yaml}`), defaults).ms - scenarioBound(base, defaults).ms
    expect(steps('  - call: { tool: plain }\n')).toBe(LOAD_FACTOR * 200)
    expect(steps('  - call: { tool: slow }\n')).toBe(LOAD_FACTOR * 5000)
    expect(steps('  - call: { tool: task }\n')).toBe(LOAD_FACTOR * 5000)
    expect(steps('  - wait: { state: stopped, timeoutMs: 700 }\n')).toBe(LOAD_FACTOR * 700)
    expect(steps('  - wait: { ms: 40 }\n')).toBe(LOAD_FACTOR * 40)
    expect(steps('  - wait: { quiet: 300, timeoutMs: 1000 }\n')).toBe(LOAD_FACTOR * (300 + 1000 + 1000))
    expect(steps('  - dispose: true\n')).toBe(LOAD_FACTOR * (3 * 100 + 2_000))
  })

  it('adds the settle window with its slack, and a refused second instance', () => {
    const plain = scenarioBound(scenario('server: {}\nclient: { debounceMs: 50 }\n'), defaults).ms
    expect(scenarioBound(scenario('server: {}\nclient: { debounceMs: 50 }\nsettle: debounceMs * 4\n'), defaults).ms - plain).toBe(LOAD_FACTOR * (200 + SETTLE_SLACK_MS))
    const duplicate = scenarioBound(scenario('server: {}\nexpect: { duplicateServerNameRejected: true }\n'), defaults).ms - scenarioBound(scenario('server: {}\n'), defaults).ms
    expect(duplicate).toBe(LOAD_FACTOR * (30_000 + 8_000 + 8_000))
  })

  it("a driven client's waits are the kit's bounds on its driver", () => {
    const bound = scenarioBound(scenario('server: { tools: [{ name: a }] }\nclient: { connectTimeoutMs: 100 }\nsteps: [{ call: { tool: a } }]\n'), defaults, DRIVER)
    expect(bound.ms).toBe(outer(20_000 + 10_000 + 20_000 + 10_000))
  })
})

/** A client whose start or first call never ends, as a deadline that never fires would leave it. */
function hangingAdapter(hangIn: 'start' | 'call', disposed: string[], lateStart?: Promise<void>): ClientAdapter {
  const session: ClientSession = {
    tools: () => [{ name: 'a', rawName: 'a', description: '', parameters: {} }],
    onToolsChange: () => () => {},
    call: () => new Promise(() => {}),
    state: () => 'connected',
    logs: () => [],
    pids: () => [],
    attachmentCount: () => 0,
    dispose: async () => void disposed.push(hangIn),
  }
  return {
    name: 'hanging',
    routes: { vision: undefined, 'text-only': undefined },
    start: async () => {
      if (hangIn === 'start') await (lateStart ?? new Promise(() => {}))
      return session
    },
  }
}

describe('a run past its outer bound', () => {
  const loaded = { file: '/s/t.yaml', scenario: scenario('server: { tools: [{ name: a }] }\nclient: { connectTimeoutMs: 300 }\nsteps: [{ call: { tool: a } }]\ntransports: [http]\n') }

  it('derives the bound from the plugin defaults under the scenario settings', () => {
    expect(boundDefaults()).toEqual(defaults)
  })

  it('a call that never returns: one harness error naming the scenario, the bound and the step; the client is still disposed', async () => {
    const disposed: string[] = []
    const suite = await runScenario(loaded, 'http', hangingAdapter('call', disposed), { updateSnapshots: false, outerBoundMs: 300 })
    expect(suite.checks).toEqual([
      expect.objectContaining({ id: 'harness/bound', status: 'error', message: 'scenario t [http] did not end within its outer bound of 300 ms (set by the caller); it was cut short at step 1 (call a), and its processes were stopped' }),
    ])
    expect(disposed).toEqual(['call'])
  })

  it('a start that never returns is cut too, and a start that returns after the cut is disposed at once', async () => {
    const disposed: string[] = []
    let release!: () => void
    const late = new Promise<void>((resolve) => (release = resolve))
    const suite = await runScenario(loaded, 'http', hangingAdapter('start', disposed, late), { updateSnapshots: false, outerBoundMs: 300 })
    expect(suite.checks.map((check) => [check.id, check.status])).toEqual([['harness/bound', 'error']])
    expect(suite.checks[0]!.message).toMatch(/did not end within its outer bound of 300 ms .* cut short at the client start/)
    expect(disposed).toEqual([])
    release()
    await expect.poll(() => disposed).toEqual(['start'])
  })
})
