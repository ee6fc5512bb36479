import type { ContentBlock, ImageRef } from './host-contract.ts'

/**
 * What became of a result's images: durable references in block order, or one reason per image
 * why it stays out of model context. Without either, images get a generic placeholder.
 */
export type ImageOutcome = { kind: 'admitted'; refs: ImageRef[] } | { kind: 'refused'; reasons: string[] }

/**
 * Pure: what the model sees of an MCP result. Block order is kept, consecutive text runs are
 * joined with newlines (an admitted image splits a run), and nothing is dropped silently: every
 * block that cannot be shown becomes an explicit diagnostic. Raw payloads never enter it.
 */
export function projectContent(blocks: unknown, rawName: string, images?: ImageOutcome, maxTextChars = Infinity): ContentBlock[] {
  // The common answer, one text block within the limit, projects to itself: no run to join.
  if (Array.isArray(blocks) && blocks.length === 1) {
    const only: unknown = blocks[0]
    if (isTextBlock(only) && only.text.length <= maxTextChars) return [{ type: 'text', text: only.text }]
  }
  const out: ContentBlock[] = []
  let run: string[] = []
  const flush = () => {
    if (run.length) out.push({ type: 'text', text: run.join('\n') })
    run = []
  }
  let imageIndex = 0
  for (const block of Array.isArray(blocks) ? blocks : []) {
    if (isImage(block)) {
      const index = imageIndex++
      if (images?.kind === 'admitted' && images.refs[index]) {
        flush()
        out.push({ type: 'image', attachment: images.refs[index] })
        continue
      }
      run.push(imageDiagnostic(block, images?.kind === 'refused' ? images.reasons[index] : undefined))
      continue
    }
    const line = describeBlock(block)
    if (line !== undefined) run.push(line)
  }
  flush()
  if (!out.length) return [{ type: 'text', text: `(${rawName} returned no model-visible content)` }]
  return capText(out, maxTextChars)
}

/** The text line one non-image MCP content block contributes. */
function describeBlock(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    return '[unsupported MCP content block: expected an object]'
  }
  const b = block as Record<string, unknown>
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : '[malformed text block: "text" is not a string]'
    case 'image':
      return imageDiagnostic(b)
    case 'audio':
      return `[audio result unsupported: ${mediaType(b)}; the raw audio remains available to programmatic callers]`
    case 'resource_link':
      return typeof b.uri === 'string' && typeof b.name === 'string'
        ? `Resource link: ${b.name} (${b.uri})`
        : '[resource link unavailable: the MCP block is missing its name or URI]'
    case 'resource':
      return `[embedded resource unsupported${resourceUri(b)}; the raw resource remains available to programmatic callers]`
    default:
      return `[unsupported MCP content type: ${typeof b.type === 'string' ? b.type.slice(0, 64) : 'missing'}]`
  }
}

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  return typeof block === 'object' && block !== null && (block as Record<string, unknown>).type === 'text' && typeof (block as Record<string, unknown>).text === 'string'
}

export function isImage(block: unknown): block is Record<string, unknown> {
  return typeof block === 'object' && block !== null && (block as Record<string, unknown>).type === 'image'
}

function imageDiagnostic(block: Record<string, unknown>, reason?: string): string {
  const why = reason ?? 'this result was not admitted to model context'
  return `[image unavailable: ${mediaType(block)}; ${why}; the raw image remains available to programmatic callers]`
}

/** Cuts model-facing text at `max` characters in total, saying how much there was. */
function capText(blocks: ContentBlock[], max: number): ContentBlock[] {
  const total = blocks.reduce((sum, b) => sum + (b.type === 'text' ? b.text.length : 0), 0)
  if (total <= max) return blocks
  let budget = max
  const out: ContentBlock[] = []
  for (const block of blocks) {
    if (block.type !== 'text') {
      out.push(block)
      continue
    }
    if (budget <= 0) continue
    out.push({ type: 'text', text: block.text.slice(0, budget) })
    budget -= block.text.length
  }
  out.push({ type: 'text', text: `[output truncated: showed ${max} of ${total} characters; the full result remains available to programmatic callers]` })
  return out
}

function mediaType(block: Record<string, unknown>): string {
  return typeof block.mimeType === 'string' ? block.mimeType.slice(0, 100) : 'unknown media type'
}

function resourceUri(block: Record<string, unknown>): string {
  const resource = block.resource
  if (typeof resource !== 'object' || resource === null) return ''
  const uri = (resource as Record<string, unknown>).uri
  return typeof uri === 'string' ? `: ${uri.slice(0, 200)}` : ''
}
