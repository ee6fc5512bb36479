import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'

const DIST = new URL('../dist/', import.meta.url).href
const PROBE = new URL('./support/module-probe.mjs', import.meta.url).href

/**
 * In a fresh process, from the built package as a host loads it, with module hooks that see every
 * import: a stdio-only instance registers its first tool without loading the HTTP, legacy SSE and
 * OAuth modules, the SDK's auth modules, Ajv or re2js (issue 40: they were most of the start). Then an
 * HTTP instance loads them, so the probe is shown to see them.
 */
const CHILD = `
import { createRequire, register } from 'node:module'
import { MessageChannel } from 'node:worker_threads'
const { port1, port2 } = new MessageChannel()
const loaded = new Set()
let flushed
port1.on('message', (m) => (typeof m === 'string' ? loaded.add(m) : flushed()))
register('${PROBE}', import.meta.url, { data: { port: port2 }, transferList: [port2] })
const settle = () => { port1.postMessage('flush'); return new Promise((resolve) => (flushed = resolve)) }
const require = createRequire(import.meta.url)
const HEAVY = [/\\/dist\\/(http-transport|response-limits|auth|auth-fetch|auth-renewal)\\.js$/, /\\/dist\\/oauth\\/(?!host-auth|memory-store)/, /@modelcontextprotocol\\/sdk\\/dist\\/esm\\/(client|server|shared)\\/auth/, /[\\\\/]node_modules[\\\\/](ajv|re2js)[\\\\/]/]
const heavy = () => [...loaded, ...Object.keys(require.cache)].filter((url) => HEAVY.some((re) => re.test(url))).map((url) => url.replace(/^.*node_modules\\//, '').replace(/^.*\\/dist\\//, 'dist/')).sort()
const { Context } = await import('cordis')
const bridge = await import('${DIST}index.js')
const ctx = new Context()
const tools = new Map()
let first
const registered = new Promise((resolve) => (first = resolve))
ctx.provide('tools')
ctx.set('tools', { register: (d) => { tools.set(d.name, d); first(); return () => tools.delete(d.name) }, get: (n) => tools.get(n), list: () => [...tools.values()], execute: async () => ({}) })
const { command, args } = JSON.parse(process.env.FIXTURE)
const stdio = ctx.plugin(bridge, { transport: 'stdio', serverName: 's', command, args })
await registered
await settle()
const stdioLoaded = heavy()
const http = ctx.plugin(bridge, { transport: 'streamable-http', serverName: 'h', url: 'http://127.0.0.1:9/mcp', reconnect: { enabled: false } })
await http
await settle()
console.log(JSON.stringify({ tools: [...tools.keys()], stdioLoaded, httpLoaded: heavy().filter((name) => name.includes('http-transport')) }))
await http.dispose()
await stdio.dispose()
process.exit(0)
`

describe('a stdio-only start loads no HTTP, OAuth, Ajv or re2js module', () => {
  it('registers its first tool without them; an HTTP instance loads them on first need', () => {
    const fixture = fixtureCommand({ tools: [{ name: 'echo' }] })
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, FIXTURE: JSON.stringify(fixture) },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(JSON.parse(out)).toEqual({ tools: ['mcp__s__echo'], stdioLoaded: [], httpLoaded: ['dist/http-transport.js'] })
  })
})
