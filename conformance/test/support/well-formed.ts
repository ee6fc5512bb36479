/** For the report tests: a minimal XML well-formedness check, enough to show that untrusted text did not break out. */
import { expect } from 'vitest'

/** A minimal well-formedness check: balanced tags, and no raw '<' or bare '&' in text or attributes. */
export function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '')
  const stack: string[] = []
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>/g
  let last = 0
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const text = body.slice(last, m.index)
    expect(text, 'text between tags').not.toMatch(/<|&(?!(amp|lt|gt|quot|apos|#\d+);)/)
    expect(m[3] ?? '', 'attributes').not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/)
    if (m[1]) expect(stack.pop()).toBe(m[2])
    else if (!m[4]) stack.push(m[2] as string)
    last = tag.lastIndex
  }
  expect(body.slice(last).trim()).toBe('')
  expect(stack).toEqual([])
  // eslint-disable-next-line no-control-regex -- asserting their absence
  expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/)
}
