import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { makeTempDir } from '@mcp-bridge/process'

const bin = fileURLToPath(new URL('../bin/mcp-bridge.js', import.meta.url))
const SECRET = 'sk-live-0123456789abcdefghij'

/** `mcp-bridge --config <file> tools` for one stdio server started by `sh -c script`. */
function tools(script: string): Promise<{ code: number | null; stderr: string }> {
  const dir = makeTempDir('cli-exits-at-once-')
  const config = join(dir.path, 'cordis.yml')
  writeFileSync(config, stringify([{ id: 'quick', name: 'mcp-client', config: { serverName: 'quick', transport: 'stdio', command: 'sh', args: ['-c', script], reconnect: { enabled: false } } }]))
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, '--config', config, 'tools'], { timeout: 60_000 }, (error, _stdout, stderr) => {
      dir.remove()
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr })
    })
  })
}

describe('mcp-bridge tools against a server that exits at once (issue 34, item 9)', () => {
  // Whichever comes first, the broken pipe under the first write (EPIPE) or the closed connection,
  // the line says that the server exited, with its code and its last stderr, redacted. The first
  // request is the server/discover probe (plugin README, "Protocol eras").
  it.each([
    ['before it reads anything', `echo "goodbye ${SECRET}" >&2; exit 3`, 3],
    ['after its stdin has taken the first request', `sleep 0.3; echo "goodbye ${SECRET}" >&2; exit 4`, 4],
  ])('%s: it exited, with its code and stderr, never only "write EPIPE"', async (_when, script, code) => {
    const run = await tools(script)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(new RegExp(`server/discover failed: the server process exited \\(code ${code}\\) before answering \\(server stderr: goodbye <redacted>\\)`))
    expect(run.stderr).not.toMatch(/EPIPE|Connection closed/)
    expect(run.stderr).not.toContain(SECRET)
  })

  it('one killed by a signal says which', async () => {
    const run = await tools('kill -9 $$')
    expect(run.stderr).toMatch(/server\/discover failed: the server process exited \(signal SIGKILL\) before answering/)
  })
})
