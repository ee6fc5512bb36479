import { gif, jpeg, MIME_TYPES, png, wav, webp, type Rgba } from './images.ts'
import { hashString, prng, randomBytes, randomText } from './prng.ts'
import type { BlockSpec, ToolSpec } from './schema.ts'

/** What a fixture can report about itself (the `status` block, `fixtureStatus()`). */
export interface FixtureStatus {
  /** This start's number when a state file counts starts, else 1. */
  start: number
  /** tools/call requests received. */
  calls: number
  /** The tool list version: 1 at start, +1 per applied list_changed step. */
  generation: number
  /** Every notifications/cancelled received, in order. */
  cancellations: CancellationRecord[]
  /** Sessions currently open (always 1 over stdio). */
  sessions: number
}

export interface CancellationRecord {
  requestId: string | number
  reason?: string
  /** The cancelled request's method and tool, when the fixture saw that request. */
  method?: string
  tool?: string
  /** Whether the fixture had already answered the request when the cancellation arrived. */
  answered: boolean
}

export interface RenderContext {
  seed: number
  tool: string
  args: unknown
  envNames(): string[]
  status(): FixtureStatus
}

export type ContentBlock = Record<string, unknown>
export type ToolResult = Record<string, unknown>

/** The default result when a tool scripts none: its arguments echoed back. */
const ECHO_RESULT = { content: [{ type: 'echo' }] } satisfies ToolSpec['result']

/** Builds the tools/call result for a scripted tool. Pure: everything it needs is in `ctx`. */
export function renderResult(spec: ToolSpec['result'] | undefined, ctx: RenderContext): ToolResult {
  const { content, ...rest } = spec ?? ECHO_RESULT
  return { content: content.flatMap((block, index) => renderBlock(block, index, ctx)), ...rest }
}

function renderBlock(block: BlockSpec, index: number, ctx: RenderContext): ContentBlock[] {
  const random = prng(ctx.seed, hashString(`${ctx.tool}#${index}`))
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text ?? randomText(random, block.bytes ?? 0) }]
    case 'echo':
      return [{ type: 'text', text: JSON.stringify(ctx.args ?? {}) }]
    case 'env': {
      const prefix = block.prefix ?? ''
      return [{ type: 'text', text: JSON.stringify(ctx.envNames().filter((name) => name.startsWith(prefix)).sort()) }]
    }
    case 'status':
      return [{ type: 'text', text: JSON.stringify(ctx.status()) }]
    case 'raw':
      return [block.value as ContentBlock]
    case 'resource_link': {
      const { type, ...link } = block
      return [{ type, ...link }]
    }
    case 'resource': {
      const { type, ...resource } = block
      return [{ type, resource }]
    }
    case 'audio':
      if (block.data !== undefined) return [{ type: 'audio', data: block.data, mimeType: block.mimeType }]
      return [{ type: 'audio', data: wav(randomBytes(random, 64)).toString('base64'), mimeType: block.mimeType ?? 'audio/wav' }]
    case 'image':
      return Array.from({ length: block.repeat ?? 1 }, () => renderImage(block, random))
  }
}

type ImageSpec = Extract<BlockSpec, { type: 'image' }>

function renderImage(block: ImageSpec, random: () => number): ContentBlock {
  if (block.format === undefined) return { type: 'image', data: block.data, mimeType: block.mimeType }
  const colour: Rgba = [byte(random), byte(random), byte(random), 255]
  const size = block.size ?? 2
  const filler = (length: number) => randomText(random, length)
  const bytes = {
    png: () => png(size, colour, filler, block.bytes),
    jpeg: () => jpeg(size, (colour[0] + colour[1] + colour[2]) / 3, filler, block.bytes),
    gif: () => gif(size, colour, filler, block.bytes),
    webp: () => webp(size, colour),
  }[block.format]()
  return { type: 'image', data: bytes.toString('base64'), mimeType: block.mimeType ?? MIME_TYPES[block.format] }
}

const byte = (random: () => number) => Math.floor(random() * 256)
