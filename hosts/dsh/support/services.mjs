// The harness services a host mounts around the bridge, with the two the harness leaves to a
// deployment filled in small: an in-memory AttachmentStore (dsh-attachment's own base class does
// the batch checks) and an LlmAdapter whose models declare their input modalities (dsh-llm's
// LlmRuntime answers resolveModelInfo from it). Nothing here is a copy of a harness service.
import { Context } from '@deepseek-ai/cordis'
import { AttachmentError, AttachmentStore } from '@deepseek-ai/dsh-attachment'
import { LlmAdapter, LlmRuntime } from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'

export const PROVIDER = 'dsh-host'
/** Model ids and what they accept; `vision` sees images, `chat` does not. */
export const MODELS = { vision: ['text', 'image'], chat: ['text'] }

const SIGNATURES = {
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/gif': [0x47, 0x49, 0x46, 0x38],
  'image/webp': [0x52, 0x49, 0x46, 0x46],
}

/** Keeps images in memory; refuses bytes that are not what their media type says. */
export class MemoryAttachments extends AttachmentStore {
  imageLimits = {
    maxImageBytes: 8 << 20,
    maxImagesPerMessage: 16,
    maxMessageImageBytes: 32 << 20,
    maxImagePixels: 50_000_000,
    maxImageDimension: 8_000,
    mediaTypes: Object.keys(SIGNATURES),
  }
  images = new Map()

  async validateImage(input) {
    const signature = SIGNATURES[input.mediaType]
    if (!signature || !signature.every((byte, i) => input.data[i] === byte)) {
      throw new AttachmentError(`declared ${input.mediaType} but the bytes are not`, 'IMAGE_TYPE_MISMATCH')
    }
  }

  async saveImage(input) {
    const attachmentId = `mem-${this.images.size + 1}`
    const png = input.mediaType === 'image/png' && input.data.length >= 24
    const view = new DataView(input.data.buffer, input.data.byteOffset, input.data.byteLength)
    const ref = { attachmentId, mediaType: input.mediaType, bytes: input.data.byteLength, width: png ? view.getUint32(16) : 0, height: png ? view.getUint32(20) : 0 }
    this.images.set(attachmentId, { ref, data: input.data })
    return ref
  }

  async readImage(ref) {
    const stored = this.images.get(ref.attachmentId)
    if (!stored) throw new AttachmentError(`no image ${ref.attachmentId}`, 'INVALID_IMAGE')
    return stored
  }
}

class CatalogAdapter extends LlmAdapter {
  async resolveModel(provider, model) {
    return { provider, id: model, name: model, ...(MODELS[model] ? { inputModalities: MODELS[model] } : {}) }
  }

  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('this host makes no model calls')
  }
}

/**
 * A harness root: SystemPrompt, ToolRuntime, and optionally the attachment store and LlmRuntime
 * with the catalog adapter. Services are awaited before anything injects them (Cordis 4 does
 * not wait for a missing injection).
 */
export async function createDshRoot({ images = true } = {}) {
  const ctx = new Context()
  const fibers = [ctx.plugin(SystemPrompt)]
  await fibers[0]
  fibers.push(ctx.plugin(ToolRuntime))
  if (images) {
    fibers.push(ctx.plugin(MemoryAttachments), ctx.plugin(LlmRuntime))
  }
  for (const fiber of fibers) await fiber
  if (images) ctx.llm.registerAdapter([PROVIDER], new CatalogAdapter())
  return { ctx, dispose: async () => { for (const fiber of fibers.reverse()) await fiber.dispose() } }
}

/**
 * What a harness agent offers the tools it calls: the provider and model of its requests. A real
 * Agent (dsh-agent) needs a session store and a model; the bridge reads only these two members,
 * the ones the seed read (`options`, and `session.requestHeader()?.config` first).
 */
export function agentFor(model, { requested } = {}) {
  return { options: { provider: PROVIDER, model }, session: { requestHeader: () => (requested ? { config: { provider: PROVIDER, model: requested } } : undefined) } }
}
