/**
 * A reader that stops early (`mcp-conformance list | head -1`) closes its end of the pipe, and the
 * next write fails with EPIPE: Node raises it as an 'error' event on the stream and, with no
 * listener, as a crash with a stack trace and exit code 1. That reader wants no more output, so
 * what is written after it is dropped and the program ends as it would have. Any other error on
 * the stream is still thrown.
 */
export function tolerateClosedOutput(streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
    })
  }
}
