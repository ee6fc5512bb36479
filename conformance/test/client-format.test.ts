import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scenarioNotApplicable } from '../src/client/applicability.ts'
import { BRIDGE_BEYOND_FEATURES } from '../src/client/bridge-ask.ts'
import { loadScenarios, parseScenario, SCENARIO_DIR, scenarioFiles } from '../src/client/load.ts'
import { selectScenarios } from '../src/client/index.ts'

describe('scenario discovery and format', () => {
  it('picks up every scenario file in scenarios/', () => {
    const files = readdirSync(SCENARIO_DIR).filter((name) => name.endsWith('.yaml') && !name.startsWith('_'))
    const loaded = loadScenarios()
    expect(loaded.map((l) => basename(l.file)).sort()).toEqual(files.sort())
    expect(loaded.length).toBeGreaterThanOrEqual(30)
  })

  // Snapshots pin the bridge's rendering: a scenario the bridge is not judged on (a feature it does not offer) has none.
  it('has a snapshot for every scenario transport the bridge runs, and no snapshot without a scenario', () => {
    const expected = loadScenarios().filter(({ scenario }) => scenarioNotApplicable(scenario, 'bridge', BRIDGE_BEYOND_FEATURES) === undefined).flatMap(({ scenario }) => scenario.transports.flatMap((t) => scenario.eras.map((era) => `${scenario.id}.${era === 'legacy' ? t : `${t}.${era}`}.snap`)))
    const present = readdirSync(SCENARIO_DIR).filter((name) => name.endsWith('.snap'))
    expect(present.sort()).toEqual(expected.sort())
  })

  it('keeps the template valid', () => {
    const template = readFileSync(join(SCENARIO_DIR, '_template.yaml'), 'utf8')
    expect(parseScenario(template, join(SCENARIO_DIR, 'your-behaviour-here.yaml')).id).toBe('your-behaviour-here')
  })

  it.each([
    ['an unknown key', 'id: x\ntitle: t\nspec: [{ ref: r }]\nserver: {}\nstesp: []\n', /^\/s\/x\.yaml:5: stesp: unknown key; remove it or correct its spelling$/],
    ['a typo in the fixture', 'id: x\ntitle: t\nspec: [{ ref: r }]\nserver: { tols: [] }\n', /:4: server\.tols: unknown key/],
    ['a bad step', 'id: x\ntitle: t\nspec: [{ ref: r }]\nserver: {}\nsteps: [{ cal: {} }]\n', /:5: steps\[0\]/],
    ['a bad regex', 'id: x\ntitle: t\nspec: [{ ref: r }]\nserver: {}\nexpect: { logs: ["("] }\n', /:5: expect\.logs\[0\]: not a valid regular expression; change the value/],
    ['a missing spec', 'id: x\ntitle: t\nserver: {}\n', /spec: missing \(array expected\); add it/],
    ['invalid YAML', 'id: [x\n', /invalid YAML/],
  ])('rejects %s with the path of the problem', (_label, text, message) => {
    expect(() => parseScenario(text, '/s/x.yaml')).toThrow(message)
  })

  it('requires the id to equal the file name', () => {
    expect(() => parseScenario('id: x\ntitle: t\nspec: [{ ref: r }]\nserver: {}\n', '/s/y.yaml')).toThrow(/id "x" must equal the file name "y"/)
  })

  it('shards deterministically and completely', () => {
    const all = loadScenarios()
    const shards = [1, 2, 3].map((index) => selectScenarios(all, [], { index, count: 3 }).map((s) => s.scenario.id))
    expect(shards.flat().sort()).toEqual(all.map((s) => s.scenario.id).sort())
    expect(new Set(shards.flat()).size).toBe(all.length)
    expect(selectScenarios(all, [], { index: 2, count: 3 }).map((s) => s.scenario.id)).toEqual(shards[1])
    expect(() => selectScenarios(all, ['no-such-scenario'])).toThrow(/no scenario with id "no-such-scenario"/)
  })

  it('lists only scenario files', () => {
    expect(scenarioFiles().every((file) => file.endsWith('.yaml') && !basename(file).startsWith('_'))).toBe(true)
  })
})
