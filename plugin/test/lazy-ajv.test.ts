import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const DIST = new URL('../dist/', import.meta.url).href

/**
 * In a fresh process, from the built package as a host loads it: reading a configuration,
 * planning tools with plain schemas and building their definitions load no Ajv; the first
 * compile does (issue 40: Ajv was a large share of the start before the first tool registered).
 */
const CHILD = `
import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
const ajvLoaded = () => Object.keys(require.cache).some((path) => /[\\\\/]node_modules[\\\\/]ajv[\\\\/]/.test(path))
await import('${DIST}config.js')
await import('${DIST}definition.js')
const { planTools } = await import('${DIST}discovery.js')
const { SchemaCompiler } = await import('@mcp-bridge/process')
const plan = planTools('s', [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'd' } }, required: ['text'] } }], {})
const planned = ajvLoaded()
const compiled = new SchemaCompiler().compile({ type: 'object', properties: { n: { type: 'integer', minimum: 0 } } })
const violations = compiled.ok ? compiled.validate({ n: -1 }) : [compiled.reason]
console.log(JSON.stringify({ tools: plan.tools.length, planned, compiled: ajvLoaded(), violations }))
`

describe('Ajv is loaded at its first use, not with the plugin', () => {
  it('plans plain tools without it, and loads it for the first compile', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', timeout: 60_000 })
    expect(JSON.parse(out)).toEqual({ tools: 1, planned: false, compiled: true, violations: ['/n must be >= 0'] })
  })
})
