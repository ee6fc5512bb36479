import { describe, expect, it } from 'vitest'
import { evaluateDuration } from '../src/client/durations.ts'
import { parseScenario } from '../src/client/load.ts'
import { checkTimings } from '../src/client/timing.ts'

const config = { toolCallTimeoutMs: 200, reconnect: { initialDelayMs: 20, maxDelayMs: 80 }, listChanged: { debounceMs: 50 } }

function scenario(extra: string): ReturnType<typeof parseScenario> {
  return parseScenario(`id: t\ntitle: t\nspec: [{ ref: r }]\nserver: {}\nclient: { toolCallTimeoutMs: 200 }\n${extra}`, '/s/t.yaml')
}

describe('durations relative to the client config', () => {
  it.each([
    [150, 150],
    ['toolCallTimeoutMs', 200],
    ['toolCallTimeoutMs * 3 + 2000', 2600],
    ['3 * toolCallTimeoutMs', 600],
    ['reconnect.initialDelayMs * 3 + reconnect.maxDelayMs', 140],
    ['listChanged.debounceMs * 0.5', 25],
  ])('%s is %i ms', (duration, ms) => {
    expect(evaluateDuration(duration, config)).toEqual({ ms })
  })

  it('names what is missing or malformed', () => {
    expect(evaluateDuration('connectTimeoutMs * 3', config)).toEqual({ error: "the scenario's client config sets no number at connectTimeoutMs" })
    expect(evaluateDuration('reconnect', config)).toEqual({ error: "the scenario's client config sets no number at reconnect" })
    expect(evaluateDuration('toolCallTimeoutMs - 5', config)).toMatchObject({ error: expect.stringContaining('is not a number, a config path') })
  })

  it('refuses a scenario whose bound refers to nothing it configures, naming the path', () => {
    expect(() => scenario('timing: { start: { atMost: "connectTimeoutMs * 3" } }\n')).toThrow(/timing\.start\.atMost: duration "connectTimeoutMs \* 3": the scenario's client config sets no number at connectTimeoutMs/)
    expect(() => scenario('steps: [{ wait: { quiet: debounceMs } }]\n')).toThrow(/steps\[0\]\.wait\.quiet/)
    expect(() => scenario('settle: nope\n')).toThrow(/settle: duration "nope"/)
    expect(() => scenario('steps: [{ dispose: true, took: {} }]\n')).toThrow(/give atLeast, atMost or both/)
  })
})

describe('timing checks', () => {
  const timed = scenario("steps:\n  - call: { tool: x }\n    took: { atLeast: toolCallTimeoutMs, atMost: 'toolCallTimeoutMs * 3 + 2000' }\n  - wait: { ms: 1 }\n    took: { atMost: 10 }\ntiming: { start: { atMost: 100 } }\n")

  it('passes within the bounds and says what they came to', () => {
    const checks = checkTimings(timed, { startMs: 50, stepMs: [300, 5] })
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['timing/start', 'pass'],
      ['timing/step-1', 'pass'],
      ['timing/step-2', 'pass'],
    ])
    expect(checks[1]!.message).toBe('took 300 ms (at least toolCallTimeoutMs = 200 ms, at most toolCallTimeoutMs * 3 + 2000 = 2600 ms)')
  })

  it('fails a timer that fired too soon or too late (an SDK default in place of the configured one)', () => {
    const checks = checkTimings(timed, { startMs: 50, stepMs: [60_100, 5] })
    expect(checks[1]).toMatchObject({ status: 'fail', message: 'took 60100 ms, longer than toolCallTimeoutMs * 3 + 2000 = 2600 ms' })
    expect(checkTimings(timed, { startMs: 50, stepMs: [20, 5] })[1]).toMatchObject({ status: 'fail', message: 'took 20 ms, sooner than toolCallTimeoutMs = 200 ms' })
  })

  it('skips a step that never ran instead of passing it', () => {
    const checks = checkTimings(timed, { stepMs: [300] })
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['timing/start', 'skip'],
      ['timing/step-1', 'pass'],
      ['timing/step-2', 'skip'],
    ])
  })

  it('says a dispose the kit stopped waiting for had not finished, instead of quoting the wait as its time', () => {
    const disposing = scenario('timing: { dispose: { atMost: 10000 } }\n')
    expect(checkTimings(disposing, { stepMs: [], disposeMs: 10_000, disposeUnfinished: true })).toEqual([
      expect.objectContaining({ id: 'timing/dispose', status: 'fail', message: 'had not finished after 10000 ms, when the kit stopped waiting, longer than 10000 ms' }),
    ])
    expect(checkTimings(disposing, { stepMs: [], disposeMs: 10_000 })).toEqual([expect.objectContaining({ status: 'pass', message: 'took 10000 ms (at most 10000 ms)' })])
  })
})
