import { errorMessage } from './errors.ts'
import type { AttachmentsService, ModelInfoService, ToolExecution } from './host-contract.ts'
import { decodeBase64, IMAGE_MEDIA_TYPES, type ImageMediaType } from '@mcp-bridge/process'
import { resolveModelInfo, routeOf } from './model-route.ts'
import { isImage, type ImageOutcome } from './projection.ts'

/** The optional host services images need; looked up per call because either may come and go. */
export interface ImageServices {
  attachments?: AttachmentsService
  /** The reference ModelCatalog or the harness' LlmRuntime: model-route.ts tells them apart. */
  llm?: ModelInfoService
}

/**
 * Decides, for one result, whether its images may enter model context. All or nothing: they are
 * admitted only when every image decodes, an attachment store is mounted, and the calling route
 * explicitly accepts image input; any refusal turns every image into a diagnostic with its reason.
 */
export async function admitImages(blocks: unknown[], exec: ToolExecution, services: ImageServices): Promise<ImageOutcome> {
  const images = blocks.filter(isImage)
  const decoded = images.map(decodeImage)
  if (decoded.some((d) => typeof d === 'string')) {
    return { kind: 'refused', reasons: decoded.map((d) => (typeof d === 'string' ? d : 'another image in the same result was invalid')) }
  }
  const refuse = (reason: string): ImageOutcome => ({ kind: 'refused', reasons: images.map(() => reason) })
  const { attachments, llm } = services
  if (!attachments) return refuse('no attachment store is mounted')
  const route = routeOf(exec)
  if (!route) return refuse('the calling model route is unknown')
  if (!llm) return refuse('no model capability service is mounted, so image input cannot be verified')
  let modalities: readonly string[] | undefined
  try {
    modalities = (await resolveModelInfo(llm, route, exec.signal)).inputModalities
  } catch (error) {
    return refuse(`the model route could not be resolved: ${errorMessage(error)}`)
  }
  if (!modalities?.includes('image')) return refuse(`model "${route.provider}/${route.model}" does not declare image input`)
  if (exec.signal.aborted) return refuse('the call was aborted before image storage')
  try {
    const refs = await attachments.saveImages(decoded as Array<{ data: Uint8Array; mediaType: ImageMediaType }>)
    return { kind: 'admitted', refs }
  } catch (error) {
    return refuse(`the attachment store refused the images: ${errorMessage(error)}`)
  }
}

function decodeImage(block: Record<string, unknown>): { data: Uint8Array; mediaType: ImageMediaType } | string {
  const mediaType = block.mimeType
  if (typeof mediaType !== 'string' || !IMAGE_MEDIA_TYPES.includes(mediaType as ImageMediaType)) {
    return `unsupported image type ${typeof mediaType === 'string' ? mediaType.slice(0, 100) : '(none)'}`
  }
  const data = decodeBase64(block.data)
  return data ? { data, mediaType: mediaType as ImageMediaType } : 'the image data is not valid base64'
}
