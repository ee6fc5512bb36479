/**
 * An untrusted HTTP body, never held whole past a limit: read as text up to a byte bound, or passed
 * through as a stream that errors once it outgrows its bound.
 */

/**
 * The body as text, read no further than past `maxBytes` (the chunk that crosses the bound is
 * kept: a quote cut later still sees what surrounds its cut); `abandoned` when the rest was left
 * unread. A body cut by the network is read as far as it came.
 */
export async function readBoundedText(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ text: string; abandoned: boolean }> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { text: text + decoder.decode(), abandoned: false }
      bytes += value.byteLength
      text += decoder.decode(value, { stream: true })
      if (bytes > maxBytes) return { text, abandoned: true }
    }
  } catch {
    // Read as far as it came.
  } finally {
    void reader.cancel().catch(() => {})
  }
  return { text, abandoned: false }
}

/**
 * `source` passed through, erroring with `tooLarge(bytesRead)` once it exceeds `maxBytes`;
 * `release` once it ends, however it ends (done, errored, over the bound or cancelled).
 */
export function limitStream(source: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: (read: number) => Error, release: () => void): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  let read = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) {
          release()
          return controller.close()
        }
        read += value.byteLength
        if (read <= maxBytes) return controller.enqueue(value)
        release()
        void reader.cancel().catch(() => {})
        controller.error(tooLarge(read))
      } catch (error) {
        release()
        controller.error(error)
      }
    },
    cancel(reason) {
      release()
      return reader.cancel(reason)
    },
  })
}
