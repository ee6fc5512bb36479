/** Pure helpers for untrusted image payloads: strict base64 and real magic bytes. */

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif'
export const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Decodes canonical base64 only; anything Buffer.from would silently repair is refused. */
export function decodeBase64(data: unknown): Uint8Array | undefined {
  if (typeof data !== 'string' || data.length === 0 || !BASE64.test(data)) return undefined
  const bytes = Buffer.from(data, 'base64')
  return bytes.toString('base64') === data ? new Uint8Array(bytes) : undefined
}

/** The media type the bytes really are, from their signature. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b)
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif'
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) {
    return 'image/webp'
  }
  return undefined
}

export function extensionOf(mediaType: ImageMediaType): string {
  return { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }[mediaType]
}
