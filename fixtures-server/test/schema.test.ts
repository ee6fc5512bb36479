import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { BehaviourSchema, formatIssues, loadBehaviourFile, parseBehaviour } from '../src/index.ts'
import { example, tempDir } from './support/fixtures.ts'

const problems = (value: unknown): string[] => {
  try {
    parseBehaviour(value)
  } catch (error) {
    return (error as Error).message.split('\n').slice(1).map((line) => line.replace(/^ {2}- /, ''))
  }
  throw new Error('expected the behaviour to be rejected')
}

describe('behaviour schema', () => {
  it('fills defaults for an empty document', () => {
    expect(parseBehaviour({})).toEqual({ name: 'mcp-fixture', version: '0.0.0', era: 'legacy', seed: 1, declareTools: true, tools: [] })
  })

  it.each(readdirSync(example('')).filter((file) => /\.(ya?ml|json)$/.test(file)))('loads examples/%s', (file) => {
    expect(loadBehaviourFile(example(file)).tools.length).toBeGreaterThan(0)
  })

  it('names an unknown key by its path', () => {
    expect(problems({ tools: [{ name: 'a', descripton: 'typo' }] })).toEqual(['tools[0].descripton: unknown key'])
    expect(problems({ toolz: [] })).toEqual(['toolz: unknown key'])
    expect(problems({ listChanged: { steps: [{ at: 1, add: [{ name: 'x', reslt: {} }] }] } })).toEqual([
      'listChanged.steps[0].add[0].reslt: unknown key',
    ])
  })

  it('lists every problem, each with its path', () => {
    expect(
      problems({
        seed: 'x',
        tools: [{ name: 1 }, { name: 'ok', result: { content: [{ type: 'hologram' }] } }],
        http: { faults: [{ request: 0, action: 'explode' }] },
      }),
    ).toEqual([
      'seed: Invalid input: expected number, received string',
      'tools[0].name: Invalid input: expected string, received number',
      'tools[1].result.content[0].type: unknown block type (expected one of text, image, audio, resource, resource_link, echo, env, status, raw)',
      'http.faults[0].request: Too small: expected number to be >=1',
      'http.faults[0].action: Invalid option: expected one of "fail"|"drop"|"never"|"flood"',
    ])
  })

  it('rejects contradictions with a reason', () => {
    expect(problems({ tools: [{ name: 'x', hang: true, error: { code: 1, message: 'm' } }] })).toEqual([
      'tools[0]: choose at most one of result, error, hang, exit',
    ])
    expect(problems({ listChanged: { afterMs: 5, onTool: 'go' } })).toEqual([
      'listChanged: choose at most one trigger: afterMs, afterCalls or onTool',
    ])
    expect(problems({ tools: [{ name: 'x', result: { content: [{ type: 'image', data: 'AA==' }] } }] })).toEqual([
      'tools[0].result.content[0].mimeType: data needs a mimeType',
    ])
    expect(problems({ tools: [{ name: 'x', result: { content: [{ type: 'image', format: 'webp', bytes: 99 }] } }] })).toEqual([
      'tools[0].result.content[0].bytes: bytes works with format png, jpeg, gif',
    ])
    expect(problems({ http: { faults: [{ action: 'drop' }] } })).toEqual(['http.faults[0]: give request, method or tool'])
  })

  it('embeds as the server section of a scenario, paths prefixed', () => {
    const Scenario = z.strictObject({ id: z.string(), server: BehaviourSchema })
    const parsed = Scenario.safeParse({ id: 's', server: { tools: [{ name: 'a', inputSchem: {} }] } })
    expect(parsed.success).toBe(false)
    expect(formatIssues(parsed.error!.issues)).toBe('  - server.tools[0].inputSchem: unknown key')
  })

  it('loads YAML and JSON files, naming the file in errors and resolving relative paths', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ wire: 'logs/w.jsonl', crash: { stateFile: 'state.json' } }))
    const loaded = loadBehaviourFile(join(dir, 'b.json'))
    expect(loaded.wire).toBe(join(dir, 'logs/w.jsonl'))
    expect(loaded.crash?.stateFile).toBe(join(dir, 'state.json'))
    writeFileSync(join(dir, 'bad.yaml'), 'tools:\n  - name: a\n    hang: yes please\n')
    expect(() => loadBehaviourFile(join(dir, 'bad.yaml'))).toThrow(`${join(dir, 'bad.yaml')}:3: tools[0].hang: expected boolean, received string; give a boolean there`)
    writeFileSync(join(dir, 'broken.yaml'), 'tools: [\n')
    expect(() => loadBehaviourFile(join(dir, 'broken.yaml'))).toThrow(/^.*broken\.yaml:2:1: invalid YAML: .*; fix the syntax there$/)
  })
})
