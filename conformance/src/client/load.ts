import { existsSync, readdirSync } from 'node:fs'
import { InputFileError, readInputFileSync } from '@mcp-bridge/process'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { issuesLine, parseYamlFile, type YamlFile } from '@mcp-bridge/fixtures-server'
import { ScenarioSchema, type Scenario } from './scenario.ts'

/**
 * The scenarios this kit runs. A built package carries its own copy (`<package>/scenarios`, made by
 * `npm run build`); run from its sources, or built inside its own repository (the workspace bin,
 * `npx mcp-conformance`), the kit reads the repository's top-level `scenarios/`, the source of
 * truth, so that snapshot updates land there and never in the copy the next build overwrites.
 */
export const SCENARIO_DIR = scenarioDir()

function scenarioDir(): string {
  const at = (path: string) => resolve(fileURLToPath(new URL(path, import.meta.url)))
  if (import.meta.url.endsWith('.ts')) return at('../../../scenarios')
  // <repo>/conformance/dist/client/load.js: the repository is recognised by its own layout.
  const repository = at('../../../scenarios')
  if (existsSync(join(repository, '_template.yaml')) && existsSync(at('../../../conformance/package.json'))) return repository
  return at('../../scenarios')
}

export interface LoadedScenario {
  file: string
  scenario: Scenario
}

/** Thrown for any scenario file that does not parse or validate; names the file and each path. */
export class ScenarioError extends Error {
  override name = 'ScenarioError'
}

/** Every `*.yaml` in the directory (not `_`-prefixed templates), validated, sorted by id. */
export function loadScenarios(dir = SCENARIO_DIR): LoadedScenario[] {
  return scenarioFiles(dir)
    .map((file) => ({ file, scenario: parseScenario(readScenarioFile(file), file) }))
    .sort((a, b) => (a.scenario.id < b.scenario.id ? -1 : 1))
}

/** A scenario is a page of YAML; a FIFO, a device or a huge file in the folder is refused in one line. */
const MAX_SCENARIO_BYTES = 16 * 1024 * 1024

function readScenarioFile(file: string): string {
  try {
    return readInputFileSync(file, { maxBytes: MAX_SCENARIO_BYTES, what: 'scenario file' })
  } catch (error) {
    // Found in the scenarios folder, not named by anyone: every *.yaml there is read as a scenario.
    if (error instanceof InputFileError) throw new ScenarioError(`${file}: it ${error.reason.replace(/: give the path of a file$/, '')}; move it out of the folder or rename it`)
    throw new ScenarioError((error as Error).message)
  }
}

export function scenarioFiles(dir = SCENARIO_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml') && !name.startsWith('_'))
    .map((name) => join(dir, name))
}

/** How a scenario starts, for the fix of an empty file. */
const SCENARIO_EXAMPLE = 'start from scenarios/_template.yaml; FORMAT.md describes every key'

/**
 * Pure apart from naming the file: YAML text in, a validated scenario out. A problem is a
 * ScenarioError in one line: the file and line, the place, the problem and the fix.
 */
export function parseScenario(text: string, file: string): Scenario {
  let parsed: YamlFile
  try {
    parsed = parseYamlFile(text, file, 'scenario', SCENARIO_EXAMPLE)
  } catch (error) {
    throw new ScenarioError((error as Error).message)
  }
  const result = ScenarioSchema.safeParse(parsed.value)
  if (!result.success) throw new ScenarioError(issuesLine(result.error.issues, parsed.at))
  const stem = basename(file, '.yaml')
  if (result.data.id !== stem) throw new ScenarioError(`${parsed.at(['id'])}: id "${result.data.id}" must equal the file name "${stem}"; rename the file or change the id`)
  return result.data
}
