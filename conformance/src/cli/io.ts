/** Where an invocation writes, and where it runs: the process's own streams, or a test's. */
export interface Io {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
  /** stderr is a terminal: a live progress line, and colour unless NO_COLOR. Absent: plain lines. */
  terminal?: { columns: number }
}
