/**
 * Pure: the stdio sentences of 2026-07-28 the kit judges from what reached the server's stdout and
 * how its process ended (what wire/stdio.ts records for every stdio run).
 */
import type { ModernCheckDef } from './types.ts'

export const MODERN_STDOUT: ModernCheckDef = {
  id: 'modern/stdio-stdout',
  title: 'stdout carries nothing but MCP messages, one a line',
  how: 'every stdout line of the run is a JSON-RPC message; a blank line counts as noise too. Consecutive noise lines that join into one JSON-RPC message are a message with embedded newlines',
  rules: [
    { topic: 'stdio', keyword: 'MUST NOT', quote: 'The server MUST NOT write anything to its stdout that is not a valid MCP message.' },
    { topic: 'stdio', keyword: 'MUST NOT', quote: 'Messages are delimited by newlines, and MUST NOT contain embedded newlines.', case: 'embedded-newline' },
  ],
}

export const MODERN_UTF8: ModernCheckDef = {
  id: 'modern/stdio-utf8',
  title: 'stdout carries UTF-8',
  how: 'every stdout line of the run is valid UTF-8 (the kit still reads a line with invalid bytes, with replacement characters, so only this check reports them)',
  rules: [{ topic: 'transports#messages', keyword: 'MUST', quote: 'JSON-RPC messages MUST be UTF-8 encoded.' }],
}

export const MODERN_EXIT: ModernCheckDef = {
  id: 'modern/stdio-exit-on-eof',
  title: 'the server exits promptly when stdin closes',
  how: 'closes stdin at the end of the run; a server still running once the run’s exit grace has passed (exitGraceMs, 5 s by default, the same bound that then spaces SIGTERM and SIGKILL) did not exit promptly',
  rules: [{ topic: 'stdio#shutdown', keyword: 'SHOULD', quote: 'Servers SHOULD exit promptly when their standard input is closed or reads return end-of-file.' }],
  note: '“Promptly” is bounded by the run’s own exit grace, the time the kit gives before it escalates to SIGTERM, never by a fixed constant.',
}

export const MODERN_STDIO_CHECKS: readonly ModernCheckDef[] = [MODERN_STDOUT, MODERN_UTF8, MODERN_EXIT]
