/**
 * Pure: whose line an oversized JSON-RPC line was, read from the two ends LineReader keeps of it
 * (the line itself is never held): the id it answers, or the method of a request or notification
 * of the peer's.
 */

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`
const STRING = String.raw`"(?:[^"\\]|\\.)*"`
/** `{"jsonrpc":"2.0","id":7,...`: the id among the first members (after jsonrpc, or a request's method). */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*${STRING}\s*,\s*)*"id"\s*:\s*${ID}\s*,`)
/** `...,"id":7}`: the id as the last member of the top-level object (the SDK writes it last). */
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*\r?$`)

/**
 * `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage",...`: a method among the first members,
 * after nothing but jsonrpc and id (a response's "result" or "error" comes before any nested
 * "method" of its own).
 */
const HEAD_METHOD = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*(?:${STRING}|-?\d+(?:\.\d+)?|null)\s*,\s*)*"method"\s*:\s*(${STRING})`)
/** `...,"method":"x","jsonrpc":"2.0","id":7}`: a method among the last members, before nothing but jsonrpc and id. */
const TAIL_METHOD = new RegExp(String.raw`"method"\s*:\s*(${STRING})\s*(?:,\s*"(?:jsonrpc|id)"\s*:\s*(?:${STRING}|-?\d+(?:\.\d+)?|null)\s*)*\}\s*\r?$`)

/**
 * The method of an oversized line that is a request or a notification of the server's, when its
 * first or last bytes show one at the top level (as oversizedResponseId reads ids); undefined for
 * a response, or a line that shows none. Its id, if any, is the server's own: never the id of a
 * request of ours, whatever its value (JSON-RPC ids belong to their sender).
 */
export function oversizedRequestMethod(head: string, tail: string): string | undefined {
  for (const match of [HEAD_METHOD.exec(head), TAIL_METHOD.exec(tail)]) {
    if (!match) continue
    try {
      return String(JSON.parse(match[1]!))
    } catch {
      // A malformed escape: still a method member, named as it was written.
      return match[1]!.slice(1, -1)
    }
  }
  return undefined
}

/**
 * The JSON-RPC id of an oversized line, when it can be read without parsing the line: only where
 * it is unambiguous, as the object's first or last member (a nested `"id"` is followed by at least
 * two closing braces at the end, and cannot open the line).
 */
export function oversizedResponseId(head: string, tail: string): Array<string | number> {
  const ids: Array<string | number> = []
  for (const match of [TAIL_ID.exec(tail), HEAD_ID.exec(head)]) {
    if (!match) continue
    try {
      ids.push(JSON.parse(match[1]!) as string | number)
    } catch {
      // A malformed escape: not an id we could have sent.
    }
  }
  return ids
}
