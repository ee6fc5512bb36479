import { Context, type Logger } from 'cordis'
import { describe, expect, it } from 'vitest'
import { attachConsoleLogger } from '@mcp-bridge/host'
import { createRedactor, escapeControls, redactSecrets } from '@mcp-bridge/process'
import { redactingLog } from '../src/log.ts'

describe('escapeControls', () => {
  it.each([
    ['line\nfeed', 'line\\nfeed'],
    ['carriage\rreturn', 'carriage\\rreturn'],
    ['tab\there', 'tab\\there'],
    ['nul\u0000 bell\u0007 backspace\b', 'nul\\x00 bell\\x07 backspace\\x08'],
    ['\u001b[31mred\u001b[0m', '\\x1b[31mred\\x1b[0m'],
    ['\u001b]0;PWNED-TITLE\u0007', '\\x1b]0;PWNED-TITLE\\x07'],
    ['delete\u007f', 'delete\\x7f'],
    ['C1 CSI\u009b2J and NEL\u0085', 'C1 CSI\\x9b2J and NEL\\x85'],
    ['line\u2028separator\u2029paragraph', 'line\\u2028separator\\u2029paragraph'],
    ['a\u202eevil and \u2066isolate\u2069', 'a\\u202eevil and \\u2066isolate\\u2069'],
  ])('%j', (text, shown) => {
    expect(escapeControls(text)).toBe(shown)
  })

  it('leaves every printable character alone: scripts, emoji (joiners included), backslashes', () => {
    const text = 'Grüße, مرحبا, пример, 例え 👩‍💻 C:\\new\\table "q" \u00a0nbsp'
    expect(escapeControls(text)).toBe(text)
  })
})

/** A real Cordis logger with the bridge's console exporter: the lines a host prints. */
function capture(redact = redactSecrets) {
  const root = new Context()
  const lines: string[] = []
  attachConsoleLogger(root, { level: 'debug', write: (line) => lines.push(line) })
  return { log: redactingLog(root.logger('mcp:hostile') as Logger, redact), lines }
}

describe('redactingLog', () => {
  it('writes a server-chosen tool name as one record, with its escape sequences shown, not obeyed', () => {
    const { log, lines } = capture()
    const name = 'bad\n[error] mcp:other: FORGED LOG LINE \u001b[31mred\u001b[0m'
    log.warn('tool "%s" not registered: %s', name, 'inputSchema must have type "object"')
    expect(lines).toEqual([
      '[warn] mcp:hostile: tool "bad\\n[error] mcp:other: FORGED LOG LINE \\x1b[31mred\\x1b[0m" not registered: inputSchema must have type "object"',
    ])
  })

  it('does the same for the format, for errors, and at every level; numbers pass as they are', () => {
    const { log, lines } = capture()
    log.error('failed:\r%s', new Error('boom\u001b]0;title\u0007'))
    log.info('%d tools\u2028%s', 3, 'ok')
    log.debug('stderr: %s', '\u009b2Jcleared')
    expect(lines).toEqual(['[error] mcp:hostile: failed:\\rboom\\x1b]0;title\\x07', '[info] mcp:hostile: 3 tools\\u2028ok', '[debug] mcp:hostile: stderr: \\x9b2Jcleared'])
  })

  it('redacts before it escapes: a secret is found by the line ends the server wrote', () => {
    const { log, lines } = capture(createRedactor(['configured-secret-value']))
    log.warn('%s', 'DB_PASSWORD=hunter2\nnext line\tconfigured-secret-value')
    expect(lines).toEqual(['[warn] mcp:hostile: DB_PASSWORD=<redacted>\\nnext line\\t<redacted>'])
  })
})
