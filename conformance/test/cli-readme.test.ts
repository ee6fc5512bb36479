/**
 * conformance/README.md against the CLI: its usage block documents every option the CLI's own
 * usage lists, and its CI example is keyless and runs the kit through the action (or npx), never
 * a checkout of this monorepo. `action.test.ts` runs that example's action step for real.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { USAGE } from '../src/cli.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const readme = () => readFile(join(ROOT, 'conformance/README.md'), 'utf8')

interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, unknown>
}

async function readmeBlock(marker: string): Promise<string> {
  const match = new RegExp(`<!-- ${marker}:start -->\\s*\`\`\`yaml\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}:end -->`).exec(await readme())
  if (!match?.[1]) throw new Error(`README has no ${marker} block`)
  return match[1]
}

const optionsIn = (text: string) => new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]+/g)].map((m) => m[0]))

describe('conformance/README.md', () => {
  it('its usage block documents every option of `mcp-conformance --help`', async () => {
    const usage = /## Usage\n\n```\n([\s\S]*?)```/.exec(await readme())?.[1] ?? ''
    const documented = optionsIn(usage)
    const missing = [...optionsIn(USAGE)].filter((option) => !documented.has(option))
    expect(optionsIn(USAGE).size).toBeGreaterThan(15)
    expect(missing).toEqual([])
  })

  it('the CI gate is keyless, uses the action, checks out only the author’s code and keeps the reports even when it fails', async () => {
    const workflow = parse(await readmeBlock('ci-workflow')) as { jobs: Record<string, { steps: Step[] }> }
    const steps = Object.values(workflow.jobs)[0]?.steps ?? []
    expect(JSON.stringify(steps)).not.toMatch(/secrets\.|token/i)
    expect(steps.filter((s) => s.uses?.startsWith('mcp-bridge/mcp-bridge-kit@'))).toHaveLength(1)
    // No second checkout (of this kit) and no install of it: the action builds the kit from its own checkout.
    const checkouts = steps.filter((s) => s.uses?.startsWith('actions/checkout'))
    expect(checkouts).toEqual([{ uses: 'actions/checkout@v4' }])
    expect(steps.map((s) => s.run ?? '').join('\n')).not.toMatch(/mcp-conformance|mcp-kit|--prefix/)
    expect(steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))).toMatchObject({ if: 'always()', with: { path: 'mcp-conformance-reports/' } })
  })

  it('the baseline to start from is valid and empty', async () => {
    expect(parse(await readmeBlock('ci-baseline'))).toEqual({ expectedFailures: [] })
  })
})
