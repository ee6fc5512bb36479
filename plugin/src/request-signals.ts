import { onAbort } from './abort-listeners.ts'

/**
 * A fetch for the SDK's Streamable HTTP transport that gives every request its own signal.
 *
 * The SDK passes one session-wide AbortSignal to every fetch; undici hangs a listener on it per
 * request and drops it only when the request is garbage-collected, so a busy session trips
 * Node's MaxListenersExceededWarning after about 1,500 calls. Here each request follows the
 * session signal only until its response body has been read or cancelled, through one shared
 * listener (abort-listeners.ts): a listener per request trips the same warning with more than 10
 * requests in flight.
 */
export function fetchWithRequestSignals(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const parent = init?.signal
    if (!parent) return base(input, init)
    const own = new AbortController()
    // The session signal is shared by every request in flight: one listener fans out to them all.
    const release = onAbort(parent, () => own.abort(parent.reason))
    let response: Response
    try {
      response = await base(input, { ...init, signal: own.signal })
    } catch (error) {
      release()
      throw error
    }
    if (!response.body || NULL_BODY_STATUS.has(response.status)) {
      release()
      return response
    }
    const reader = response.body.getReader()
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read()
          if (done) {
            release()
            controller.close()
          } else controller.enqueue(value)
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
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])
