/**
 * Every relative link in the repository's Markdown resolves to a file or folder that exists: the
 * docs are read by people who follow them, and a moved file (a package split, say) must take its
 * links along. Anchors and external URLs are not checked here.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const tracked = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').filter(Boolean)

/** Pure: the relative targets of a Markdown text's inline links, outside code spans and fences. */
export function relativeTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
  const targets: string[] = []
  for (const [, target] of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(target!)) continue
    targets.push(decodeURIComponent(target!.split('#')[0]!))
  }
  return targets.filter(Boolean)
}

describe('Markdown links', () => {
  it('reads a link, and leaves URLs, anchors and code alone', () => {
    expect(relativeTargets('[a](docs/A.md#x) [b](https://x.y) [c](#top) `[d](no.md)` [e](../E.md "t")')).toEqual(['docs/A.md', '../E.md'])
  })

  it('every relative link in a tracked Markdown file resolves', () => {
    const broken = tracked.flatMap((file) =>
      relativeTargets(readFileSync(join(ROOT, file), 'utf8'))
        .filter((target) => !existsSync(join(ROOT, dirname(file), target)))
        .map((target) => `${file}: ${target}`),
    )
    expect(broken).toEqual([])
  })
})
