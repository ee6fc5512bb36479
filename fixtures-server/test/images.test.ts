import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { launchChromium } from '../../test/support/chromium.ts'
import { crc32, gif, jpeg, png, wav, webp } from '../src/images.ts'
import { sniffImage } from '../src/index.ts'

const red = [255, 0, 0, 255] as const

/** Walks a PNG's chunks, checking every CRC. */
function pngChunks(bytes: Buffer): Array<{ type: string; data: Buffer }> {
  const chunks = []
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at)
    const body = bytes.subarray(at + 4, at + 8 + length)
    expect(bytes.readUInt32BE(at + 8 + length)).toBe(crc32(body))
    chunks.push({ type: body.subarray(0, 4).toString('latin1'), data: body.subarray(4) })
    at += 12 + length
  }
  return chunks
}

describe('generated images', () => {
  it('carry the magic numbers of their format', () => {
    expect(sniffImage(png(2, red))).toBe('png')
    expect(sniffImage(jpeg(2, 100))).toBe('jpeg')
    expect(sniffImage(gif(2, red))).toBe('gif')
    expect(sniffImage(webp(2, red))).toBe('webp')
    expect(sniffImage(Buffer.from('not an image'))).toBeUndefined()
  })

  it('PNG: valid chunks, CRCs and pixel data', () => {
    const chunks = pngChunks(png(3, [1, 2, 3, 4]))
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(chunks[0]!.data.readUInt32BE(0)).toBe(3)
    // Three rows of a filter byte and three RGBA pixels.
    expect([...inflateSync(chunks[1]!.data)]).toEqual([...Array(3)].flatMap(() => [0, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]))
  })

  it.each([
    ['png', (n: number) => png(2, red, undefined, n)],
    ['jpeg', (n: number) => jpeg(2, 77, undefined, n)],
    ['gif', (n: number) => gif(2, red, undefined, n)],
  ] as const)('%s pads to an exact byte size', (format, make) => {
    for (const size of [200, 1000, 65_600, 70_000, 300_001]) {
      const bytes = make(size)
      expect(bytes.length).toBe(size)
      expect(sniffImage(bytes)).toBe(format)
    }
    expect(() => make(10)).toThrow(/cannot/)
  })

  it('WAV: RIFF/WAVE header and sample count', () => {
    const bytes = wav(new Uint8Array([1, 2, 3]))
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF')
    expect(bytes.subarray(8, 12).toString()).toBe('WAVE')
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8)
    expect(bytes.readUInt32LE(40)).toBe(3)
  })

  // The real proof: a browser decodes every format, padded ones included, to the right size and colour.
  // The browser is the one @sparticuz/chromium ships, so this never skips.
  it('decode in Chromium', async () => {
    const chromium = await launchChromium()
    try {
      const page = await chromium.browser.newPage()
      const decode = (mime: string, bytes: Buffer) =>
        page.evaluate(async (src) => {
          const img = new Image()
          img.src = src
          await img.decode()
          const canvas = document.createElement('canvas')
          canvas.width = img.naturalWidth
          canvas.height = img.naturalHeight
          const context = canvas.getContext('2d')!
          context.drawImage(img, 0, 0)
          return { width: img.naturalWidth, pixel: [...context.getImageData(0, 0, 1, 1).data] }
        }, `data:${mime};base64,${bytes.toString('base64')}`)
      expect(await decode('image/png', png(3, [10, 20, 30, 255], undefined, 5000))).toEqual({ width: 3, pixel: [10, 20, 30, 255] })
      expect(await decode('image/jpeg', jpeg(9, 200, undefined, 70_000))).toEqual({ width: 9, pixel: [200, 200, 200, 255] })
      expect(await decode('image/jpeg', jpeg(2, 128))).toEqual({ width: 2, pixel: [128, 128, 128, 255] })
      expect(await decode('image/gif', gif(5, [10, 200, 30, 255], undefined, 3000))).toEqual({ width: 5, pixel: [10, 200, 30, 255] })
      expect(await decode('image/webp', webp(4, [40, 50, 60, 255]))).toEqual({ width: 4, pixel: [40, 50, 60, 255] })
    } finally {
      await chromium.close()
    }
  })
})
