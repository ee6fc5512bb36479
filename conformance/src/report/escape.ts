/** Pure escaping for untrusted text (server names, messages, payloads) in XML and HTML. */

// Characters XML 1.0 cannot carry at all, even escaped; lone surrogates included.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Replaces characters XML cannot represent with U+FFFD so the document stays well-formed. */
export function xmlSafe(text: string): string {
  return text.replace(XML_INVALID, '\uFFFD')
}

/** Escapes for XML text and attribute values alike. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c)
}

/** Escapes for XML attribute values, keeping line breaks and tabs (parsers would fold them). */
export function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/[\n\r\t]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Escapes for HTML text and double- or single-quoted attribute values (controls become U+FFFD). */
export function escapeHtml(text: string): string {
  return xmlSafe(text).replace(/[&<>"'`]/g, (c) => HTML_ENTITIES[c] ?? c)
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }

/** Only http(s) links are rendered as links; anything else (javascript:, data:) stays text. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined
  } catch {
    return undefined
  }
}
