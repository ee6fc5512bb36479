// The harness services a host mounts around the bridge, with the two the harness leaves to a
// deployment filled in small: an in-memory AttachmentStore (dsh-attachment's own base class does
// the batch checks) and an LlmAdapter whose models declare their input modalities (dsh-llm's
// LlmRuntime answers resolveModelInfo from it). Nothing here is a copy of a harness service.
import { Context, Logger } from '@deepseek-ai/cordis'
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
  position = 0

  // Refusals are worded like the reference host's store (the kit's snapshots quote them), so a
  // kit run compares the bridge in two tool pipelines, not two stores' messages.
  async saveImages(inputs) {
    this.position = 0
    return super.saveImages(inputs)
  }

  async validateImage(input) {
    const index = ++this.position
    const actual = Object.keys(SIGNATURES).find((type) => SIGNATURES[type].every((byte, i) => input.data[i] === byte))
    if (actual !== input.mediaType) {
      throw new AttachmentError(`image ${index}: declared ${input.mediaType} but the bytes are ${actual ?? 'no image this store accepts'}`, 'IMAGE_TYPE_MISMATCH')
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
  constructor(models) {
    super()
    this.models = models
  }

  async resolveModel(provider, model) {
    const known = this.models.find((entry) => entry.provider === provider && entry.model === model)
    return { provider, id: model, name: model, ...(known ? { inputModalities: known.inputModalities } : {}) }
  }

  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('this host makes no model calls')
  }
}

const DEFAULT_MODELS = Object.entries(MODELS).map(([model, inputModalities]) => ({ provider: PROVIDER, model, inputModalities }))

/**
 * A harness root: SystemPrompt, ToolRuntime, and optionally the attachment store and LlmRuntime
 * with an adapter per provider of `models`. Services are awaited before anything injects them
 * (Cordis 4 does not wait for a missing injection). Every log line is kept in `logs` as
 * `[level] name: message`, the reference host's format.
 */
export async function createDshRoot({ images = true, models = DEFAULT_MODELS } = {}) {
  const ctx = new Context()
  const logs = []
  ctx.logger.exporter({
    colors: 0,
    levels: { default: 3 },
    export(message) {
      logs.push(`[${message.type}] ${message.name}: ${Logger.format(this, message)}`)
    },
  })
  const fibers = [ctx.plugin(SystemPrompt)]
  await fibers[0]
  fibers.push(ctx.plugin(ToolRuntime))
  if (images) {
    fibers.push(ctx.plugin(MemoryAttachments), ctx.plugin(LlmRuntime))
  }
  for (const fiber of fibers) await fiber
  if (images) {
    for (const provider of new Set(models.map((entry) => entry.provider))) {
      ctx.llm.registerAdapter([provider], new CatalogAdapter(models.filter((entry) => entry.provider === provider)))
    }
  }
  return {
    ctx,
    logs,
    attachmentCount: () => ctx.get('attachments')?.images.size ?? 0,
    dispose: async () => {
      for (const fiber of fibers.reverse()) await fiber.dispose()
    },
  }
}

/**
 * What a harness agent offers the tools it calls: the provider and model of its requests. A real
 * Agent (dsh-agent) needs a session store and a model; the bridge reads only these two members,
 * the ones the seed read (`options`, and `session.requestHeader()?.config` first).
 */
export function agentFor(model, { requested, provider = PROVIDER } = {}) {
  return { options: { provider, model }, session: { requestHeader: () => (requested ? { config: { provider, model: requested } } : undefined) } }
}
