/** `chunks` as one array of `bytes` bytes (their total); a single chunk is itself, uncopied. */
export function concatBytes(chunks: Uint8Array[], bytes: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(bytes)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}
