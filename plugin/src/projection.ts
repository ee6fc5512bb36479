import type { ContentBlock } from './host/types.ts'

/**
 * Pure: what the model sees of an MCP result. Block order is kept, consecutive text runs are
 * joined with newlines, and nothing is dropped silently: every block that cannot be shown becomes
 * an explicit diagnostic. Raw payloads (base64) never enter this projection.
 */
export function projectContent(blocks: unknown, rawName: string): ContentBlock[] {
  const lines = Array.isArray(blocks) ? blocks.map(describeBlock).filter((l): l is string => l !== undefined) : []
  const text = lines.join('\n')
  return [{ type: 'text', text: text || `(${rawName} returned no model-visible content)` }]
}

/** The text line one MCP content block contributes, or undefined for an empty text block. */
export function describeBlock(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    return '[unsupported MCP content block: expected an object]'
  }
  const b = block as Record<string, unknown>
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : '[malformed text block: "text" is not a string]'
    case 'image':
      return `[image unavailable: ${mediaType(b)}; this result was not admitted to model context; the raw image remains available to programmatic callers]`
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

function mediaType(block: Record<string, unknown>): string {
  return typeof block.mimeType === 'string' ? block.mimeType.slice(0, 100) : 'unknown media type'
}

function resourceUri(block: Record<string, unknown>): string {
  const resource = block.resource
  if (typeof resource !== 'object' || resource === null) return ''
  const uri = (resource as Record<string, unknown>).uri
  return typeof uri === 'string' ? `: ${uri.slice(0, 200)}` : ''
}
