/**
 * mulberry32: tiny, fast and good enough for test data. Every random-looking byte a fixture
 * emits comes from here, keyed by the behaviour's seed, so two runs produce the same wire.
 */
export function prng(seed: number, salt = 0): () => number {
  let state = (seed ^ Math.imul(salt + 1, 0x9e3779b9)) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function randomBytes(random: () => number, length: number): Uint8Array {
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) out[i] = Math.floor(random() * 256)
  return out
}

/** `length` lowercase letters: filler that stays readable in a transcript. */
export function randomText(random: () => number, length: number): string {
  const codes = new Uint8Array(length)
  for (let i = 0; i < length; i++) codes[i] = 97 + Math.floor(random() * 26)
  return Buffer.from(codes).toString('latin1')
}

export function randomHex(random: () => number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += Math.floor(random() * 16).toString(16)
  return out
}

/** FNV-1a: turns a name into a salt, so each tool and block gets its own stream. */
export function hashString(text: string): number {
  let h = 0x811c9dc5
  for (const byte of Buffer.from(text, 'utf8')) h = Math.imul(h ^ byte, 0x01000193) >>> 0
  return h
}
