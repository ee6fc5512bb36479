import { deflateSync } from 'node:zlib'

/**
 * Tiny real images and audio, built byte by byte so they are deterministic and need no codec
 * library: solid-colour PNG (RGBA), baseline grayscale JPEG, lossless WebP (VP8L), GIF89a and
 * 8-bit PCM WAV. Each can be padded to an exact size with a comment chunk and stays decodable.
 */

export type Rgba = readonly [number, number, number, number]

export const MIME_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' } as const

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const u32be = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff])
const u16be = (n: number) => Buffer.from([n >>> 8, n & 0xff])
const u32le = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24])
const u16le = (n: number) => Buffer.from([n & 0xff, n >>> 8])

function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  return Buffer.concat([u32be(data.length), body, u32be(crc32(body))])
}

export function png(size: number, [r, g, b, a]: Rgba, filler?: (length: number) => string, padTo?: number): Buffer {
  const row = Buffer.alloc(1 + size * 4)
  for (let x = 0; x < size; x++) row.set([r, g, b, a], 1 + x * 4)
  const ihdr = Buffer.concat([u32be(size), u32be(size), Buffer.from([8, 6, 0, 0, 0])])
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
  ])
  const tail = pngChunk('IEND', new Uint8Array())
  if (padTo === undefined) return Buffer.concat([head, tail])
  // A tEXt chunk costs 12 bytes of framing plus its keyword; decoders skip it.
  const room = padTo - head.length - tail.length - 12 - 'Comment\0'.length
  if (room < 0) throw new Error(`a ${size}px PNG cannot be padded to ${padTo} bytes`)
  const text = Buffer.from(`Comment\0${filler?.(room) ?? 'x'.repeat(room)}`, 'latin1')
  return Buffer.concat([head, pngChunk('tEXt', text), tail])
}

/** MSB-first bit writer with JPEG byte stuffing. */
function jpegBits(): { put(value: number, count: number): void; end(): Buffer } {
  const out: number[] = []
  let acc = 0
  let n = 0
  const flush = (byte: number) => {
    out.push(byte)
    if (byte === 0xff) out.push(0)
  }
  return {
    put(value, count) {
      for (let i = count - 1; i >= 0; i--) {
        acc = (acc << 1) | ((value >>> i) & 1)
        if (++n < 8) continue
        flush(acc)
        acc = 0
        n = 0
      }
    },
    end() {
      if (n > 0) flush((acc << (8 - n)) | ((1 << (8 - n)) - 1))
      return Buffer.from(out)
    },
  }
}

const segment = (marker: number, data: Uint8Array) => Buffer.concat([Buffer.from([0xff, marker]), u16be(data.length + 2), data])

/**
 * A uniform block's DCT has only a DC term, 8 × (level − 128) with an all-ones quantiser, so one
 * Huffman code for the first block's DC category, one for "no change" and one for end-of-block
 * encode the whole image.
 */
export function jpeg(size: number, level: number, filler?: (length: number) => string, padTo?: number): Buffer {
  const dc = 8 * (Math.round(level) - 128)
  const category = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1
  const blocks = Math.ceil(size / 8) ** 2
  // Codes 00 (first block's category) and 01 (category 0); a single code of length 1 when equal.
  const twoCodes = category !== 0
  const dcTable = twoCodes ? [0, 2, ...Array(14).fill(0), category, 0] : [1, ...Array(15).fill(0), 0]
  const bits = jpegBits()
  for (let i = 0; i < blocks; i++) {
    if (i === 0 && twoCodes) {
      bits.put(0b00, 2)
      bits.put(dc > 0 ? dc : dc + (1 << category) - 1, category)
    } else {
      bits.put(twoCodes ? 0b01 : 0, twoCodes ? 2 : 1)
    }
    bits.put(0, 1) // end of block
  }
  const jfif = segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]))
  const body = [
    segment(0xdb, Buffer.from([0, ...Array(64).fill(1)])),
    segment(0xc0, Buffer.concat([Buffer.from([8]), u16be(size), u16be(size), Buffer.from([1, 1, 0x11, 0])])),
    segment(0xc4, Buffer.from([0x00, ...dcTable])),
    segment(0xc4, Buffer.from([0x10, 1, ...Array(15).fill(0), 0x00])),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    bits.end(),
    Buffer.from([0xff, 0xd9]),
  ]
  const soi = Buffer.from([0xff, 0xd8])
  const base = soi.length + jfif.length + body.reduce((sum, b) => sum + b.length, 0)
  const comments: Buffer[] = []
  if (padTo !== undefined) {
    let extra = padTo - base
    if (extra < 0) throw new Error(`a ${size}px JPEG cannot be padded to ${padTo} bytes`)
    while (extra > 0) {
      let take = Math.min(extra, 65537)
      if (extra - take > 0 && extra - take < 4) take -= 4
      if (take < 4) throw new Error(`a JPEG cannot be padded by exactly ${padTo - base} bytes`)
      comments.push(segment(0xfe, Buffer.from(filler?.(take - 4) ?? 'x'.repeat(take - 4), 'latin1')))
      extra -= take
    }
  }
  return Buffer.concat([soi, jfif, ...comments, ...body])
}

/** LSB-first bit writer, as GIF's LZW stream and WebP's VP8L stream both want. */
function lsbBits(): { put(value: number, count: number): void; end(): Buffer } {
  const out: number[] = []
  let acc = 0
  let n = 0
  return {
    put(value, count) {
      for (let i = 0; i < count; i++) {
        acc |= ((value >>> i) & 1) << n
        if (++n < 8) continue
        out.push(acc)
        acc = 0
        n = 0
      }
    },
    end: () => Buffer.from(n > 0 ? [...out, acc] : out),
  }
}

export function gif(size: number, [r, g, b]: Rgba, filler?: (length: number) => string, padTo?: number): Buffer {
  // Clear + two literals per group keeps the LZW code width at 3 bits: no compression, no edge cases.
  const bits = lsbBits()
  for (let left = size * size; left > 0; left -= 2) {
    bits.put(4, 3)
    for (let k = 0; k < Math.min(2, left); k++) bits.put(0, 3)
  }
  bits.put(5, 3)
  const lzw = bits.end()
  const subBlocks = (data: Buffer) => {
    const parts: Buffer[] = []
    for (let i = 0; i < data.length; i += 255) {
      const part = data.subarray(i, i + 255)
      parts.push(Buffer.from([part.length]), part)
    }
    return Buffer.concat([...parts, Buffer.from([0])])
  }
  const head = Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    u16le(size),
    u16le(size),
    Buffer.from([0x80, 0, 0, r, g, b, 0, 0, 0]),
    Buffer.from([0x2c]),
    u16le(0),
    u16le(0),
    u16le(size),
    u16le(size),
    Buffer.from([0, 2]),
    subBlocks(lzw),
  ])
  const trailer = Buffer.from([0x3b])
  if (padTo === undefined) return Buffer.concat([head, trailer])
  return Buffer.concat([head, gifComment(padTo - head.length - trailer.length, filler), trailer])
}

/** A comment extension of exactly `extra` bytes: 0x21 0xFE, sub-blocks of 1..255 bytes each behind a length byte, 0x00. */
function gifComment(extra: number, filler?: (length: number) => string): Buffer {
  if (extra === 3) return Buffer.from([0x21, 0xfe, 0])
  const blocks = Math.ceil((extra - 3) / 256)
  const data = extra - 3 - blocks
  if (extra < 3 || data < blocks) throw new Error(`a GIF cannot grow by exactly ${extra} bytes`)
  const text = Buffer.from(filler?.(data) ?? 'x'.repeat(data), 'latin1')
  const parts: Buffer[] = [Buffer.from([0x21, 0xfe])]
  let offset = 0
  for (let i = 0; i < blocks; i++) {
    const length = Math.floor(data / blocks) + (i < data % blocks ? 1 : 0)
    parts.push(Buffer.from([length]), text.subarray(offset, offset + length))
    offset += length
  }
  parts.push(Buffer.from([0]))
  return Buffer.concat(parts)
}

/**
 * VP8L with five one-symbol prefix codes: every pixel costs zero bits, so a solid image of any
 * size is a dozen bytes.
 */
export function webp(size: number, [r, g, b, a]: Rgba): Buffer {
  const bits = lsbBits()
  bits.put(0x2f, 8)
  bits.put(size - 1, 14)
  bits.put(size - 1, 14)
  bits.put(a === 255 ? 0 : 1, 1)
  bits.put(0, 3) // version
  bits.put(0, 1) // no transform
  bits.put(0, 1) // no colour cache
  bits.put(0, 1) // no meta prefix codes
  for (const symbol of [g, r, b, a, 0]) {
    bits.put(1, 1) // simple code
    bits.put(0, 1) // one symbol
    const wide = symbol > 1
    bits.put(wide ? 1 : 0, 1)
    bits.put(symbol, wide ? 8 : 1)
  }
  const data = bits.end()
  const pad = data.length % 2 ? Buffer.from([0]) : Buffer.alloc(0)
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), u32le(data.length), data, pad])
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(4 + chunk.length), Buffer.from('WEBP', 'latin1'), chunk])
}

/** 8 kHz mono 8-bit PCM. */
export function wav(samples: Uint8Array): Buffer {
  const fmt = Buffer.concat([u16le(1), u16le(1), u32le(8000), u32le(8000), u16le(1), u16le(8)])
  const pad = samples.length % 2 ? Buffer.from([0]) : Buffer.alloc(0)
  const body = Buffer.concat([
    Buffer.from('WAVEfmt ', 'latin1'),
    u32le(fmt.length),
    fmt,
    Buffer.from('data', 'latin1'),
    u32le(samples.length),
    samples,
    pad,
  ])
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(body.length), body])
}

/** The format the bytes really are, from their magic numbers (what a client should check a mimeType against). */
export function sniffImage(bytes: Uint8Array): keyof typeof MIME_TYPES | undefined {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1')
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'png'
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (ascii(0, 6) === 'GIF89a' || ascii(0, 6) === 'GIF87a') return 'gif'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp'
  return undefined
}
