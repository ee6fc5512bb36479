/**
 * Pure: the 2026-07-28 sentences on what a prompt's messages hold (image, audio and embedded
 * resource content), judged by ./prompt-content.ts on prompts/get of listed prompts.
 */
import { REPLY } from './rules.ts'
import type { ModernCheckDef } from './types.ts'

const EMBEDDED = 'Resources can contain either text or binary (blob) data and MUST include:'

export const PROMPT_CONTENT: ModernCheckDef = {
  id: 'modern/prompt-content',
  title: 'the content of a prompt’s messages is well formed: base64 data, valid MIME types and URIs',
  how: 'prompts/get of up to three listed prompts that list no required argument (sent without "arguments"), when prompts are declared: in every message, image and audio content carries base64 data and a valid MIME type (type/subtype, as RFC 6838 names them, optional parameters after it); an embedded resource carries an RFC 3986 URI, a valid MIME type, and a text string or a base64 blob. A JSON-RPC error or an input_required answer holds no messages and is not judged here',
  rules: [
    { topic: 'prompts#image-content', keyword: 'MUST', quote: 'The image data MUST be base64-encoded and include a valid MIME type.', case: 'image' },
    { topic: 'prompts#audio-content', keyword: 'MUST', quote: 'The audio data MUST be base64-encoded and include a valid MIME type.', case: 'audio' },
    { topic: 'prompts#embedded-resources', keyword: 'MUST', quote: `${EMBEDDED} A valid resource URI`, case: 'resource-uri' },
    { topic: 'prompts#embedded-resources', keyword: 'MUST', quote: `${EMBEDDED} The appropriate MIME type`, case: 'resource-mime' },
    { topic: 'prompts#embedded-resources', keyword: 'MUST', quote: `${EMBEDDED} Either text content or base64-encoded blob data`, case: 'resource-data' },
    REPLY,
  ],
  note: 'Whether a MIME type is the appropriate one for the data cannot be told from outside; a missing one, or one that is no MIME type at all, can.',
}
