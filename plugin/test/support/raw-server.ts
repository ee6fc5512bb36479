/**
 * A line of a stub server's line handler (its message in `m`): a legacy server answers the era
 * probe, an unknown method before initialize, with an error, so a connect does not wait out the
 * wait the bridge gives a server that stays silent.
 */
export const ANSWER_ERA_PROBE = "if (m.method === 'server/discover') return process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n')"

/**
 * Source of a minimal line-based MCP server for `node -e`, for the process faults the SDK server
 * would hide: it can ignore SIGTERM, start a grandchild, and die mid-call with a last word on stderr.
 */
export function rawServerScript(
  options: { ignoreSigterm?: boolean; grandchild?: boolean; crashStarts?: { file: string; from: number; to: number } } = {},
): string {
  return `
    ${crashOnStarts(options.crashStarts)}
    ${options.ignoreSigterm ? "process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\\n'))" : ''}
    ${options.grandchild ? "const g = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); process.stderr.write('grandchild ' + g.pid + '\\n')" : ''}
    process.stderr.write('pid ' + process.pid + '\\n')
    const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
    require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line)
      ${ANSWER_ERA_PROBE}
      if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } })
      if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'die', inputSchema: { type: 'object' } }, { name: 'ok', inputSchema: { type: 'object' } }] } })
      if (m.method === 'tools/call' && m.params.name === 'ok') send({ id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } })
      if (m.method === 'tools/call' && m.params.name === 'die') { process.stderr.write('panic: disk on fire\\n'); process.exit(7) }
    })`
}

/** Pids the raw server announced on stderr, read back from the captured debug log. */
export function announcedPids(logs: string[], label: 'pid' | 'grandchild'): number[] {
  return logs.flatMap((line) => {
    const match = new RegExp(`stderr: ${label} (\\d+)`).exec(line)
    return match ? [Number(match[1])] : []
  })
}

/**
 * Script source that counts this server's starts in `file` and exits (after a note on stderr)
 * when the count is within [from, to]; nothing without `crash`.
 */
export function crashOnStarts(crash: { file: string; from: number; to: number } | undefined): string {
  if (!crash) return ''
  const file = JSON.stringify(crash.file)
  return `const fs = require('fs'); const starts = (fs.existsSync(${file}) ? Number(fs.readFileSync(${file}, 'utf8')) : 0) + 1; fs.writeFileSync(${file}, String(starts)); if (starts >= ${crash.from} && starts <= ${crash.to}) { process.stderr.write('crashing on start ' + starts + '\\n'); process.exit(1) }`
}
