import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Context, Service } from 'cordis'
import Schema from 'schemastery'
import type { ImageRef } from '@mcp-bridge/plugin'
import { extensionOf, IMAGE_MEDIA_TYPES, sniffImageType, type ImageMediaType } from '@mcp-bridge/process'


export interface SaveImage {
  data: Uint8Array
  /** What the producer declared; it must agree with the bytes. */
  mediaType: string
  name?: string
}

export type AttachmentErrorCode =
  | 'TOO_MANY_IMAGES'
  | 'IMAGES_TOO_LARGE'
  | 'IMAGE_TOO_LARGE'
  | 'UNSUPPORTED_IMAGE_TYPE'
  | 'INVALID_IMAGE'
  | 'IMAGE_TYPE_MISMATCH'
  | 'NOT_FOUND'

export class AttachmentError extends Error {
  constructor(
    message: string,
    readonly code: AttachmentErrorCode,
  ) {
    super(message)
    this.name = 'AttachmentError'
  }
}

export interface AttachmentStoreConfig {
  directory: string
  maxImageBytes?: number
  maxBatchBytes?: number
  maxImages?: number
}

/**
 * The reference `attachments` service: content-addressed image files under one directory.
 * A batch is all-or-nothing: every member is validated before the first byte is written.
 */
export class AttachmentStore extends Service {
  static Config: Schema<AttachmentStoreConfig> = Schema.object({
    directory: Schema.string().required().description('Where image files are stored.'),
    maxImageBytes: Schema.natural().min(1).default(5 * 1024 * 1024),
    maxBatchBytes: Schema.natural().min(1).default(20 * 1024 * 1024),
    maxImages: Schema.natural().min(1).default(16),
  })

  private readonly config: Required<AttachmentStoreConfig>

  constructor(ctx: Context, config: AttachmentStoreConfig) {
    super(ctx, 'attachments')
    // Cordis resolved the schema's defaults before construction.
    this.config = config as Required<AttachmentStoreConfig>
  }

  async saveImages(batch: readonly SaveImage[]): Promise<ImageRef[]> {
    const { maxImages, maxBatchBytes } = this.config
    if (batch.length > maxImages) throw new AttachmentError(`${batch.length} images exceed the limit of ${maxImages}`, 'TOO_MANY_IMAGES')
    const total = batch.reduce((sum, image) => sum + image.data.byteLength, 0)
    if (total > maxBatchBytes) throw new AttachmentError(`${total} bytes of images exceed the batch limit of ${maxBatchBytes}`, 'IMAGES_TOO_LARGE')
    const validated = batch.map((image, index) => ({ ...image, mediaType: this.validate(image, index) }))
    await mkdir(this.config.directory, { recursive: true })
    const refs: ImageRef[] = []
    for (const image of validated) refs.push(await this.persist(image.data, image.mediaType))
    return refs
  }

  async readImage(ref: ImageRef): Promise<{ data: Uint8Array; mediaType: string }> {
    if (!/^[0-9a-f]{64}\.(png|jpg|webp|gif)$/.test(ref.attachmentId)) {
      throw new AttachmentError(`"${ref.attachmentId}" is not an attachment id`, 'NOT_FOUND')
    }
    try {
      return { data: new Uint8Array(await readFile(join(this.config.directory, ref.attachmentId))), mediaType: ref.mediaType }
    } catch {
      throw new AttachmentError(`attachment ${ref.attachmentId} does not exist`, 'NOT_FOUND')
    }
  }

  private validate(image: SaveImage, index: number): ImageMediaType {
    const which = `image ${index + 1}`
    if (!IMAGE_MEDIA_TYPES.includes(image.mediaType as ImageMediaType)) {
      throw new AttachmentError(`${which}: ${image.mediaType} is not one of ${IMAGE_MEDIA_TYPES.join(', ')}`, 'UNSUPPORTED_IMAGE_TYPE')
    }
    if (image.data.byteLength > this.config.maxImageBytes) {
      throw new AttachmentError(`${which}: ${image.data.byteLength} bytes exceed the limit of ${this.config.maxImageBytes}`, 'IMAGE_TOO_LARGE')
    }
    const actual = sniffImageType(image.data)
    if (!actual) throw new AttachmentError(`${which}: the bytes are not a PNG, JPEG, WebP or GIF image`, 'INVALID_IMAGE')
    if (actual !== image.mediaType) {
      throw new AttachmentError(`${which}: declared ${image.mediaType} but the bytes are ${actual}`, 'IMAGE_TYPE_MISMATCH')
    }
    return actual
  }

  private async persist(data: Uint8Array, mediaType: ImageMediaType): Promise<ImageRef> {
    const attachmentId = `${createHash('sha256').update(data).digest('hex')}.${extensionOf(mediaType)}`
    const path = join(this.config.directory, attachmentId)
    // Write-then-rename, so a reader never sees a half-written file under the final name.
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`
    await writeFile(temporary, data)
    await rename(temporary, path)
    return { attachmentId, mediaType, bytes: data.byteLength }
  }
}
