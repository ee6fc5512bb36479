/** The docs' checks table is the registry rendered: it fails when one changed without the other. */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import * as auth from '../src/server/registry/auth.ts'
import * as bridge from '../src/server/registry/bridge.ts'
import * as features from '../src/server/registry/features.ts'
import { CHECKS } from '../src/server/registry/index.ts'
import * as lifecycle from '../src/server/registry/lifecycle.ts'
import * as messages from '../src/server/registry/messages.ts'
import * as notifications from '../src/server/registry/notifications.ts'
import * as tasks from '../src/server/registry/tasks.ts'
import * as tools from '../src/server/registry/tools.ts'
import * as transports from '../src/server/registry/transports.ts'
import { renderChecksTable } from '../src/server/registry/table.ts'

const DOC = new URL('../docs/SERVER-CHECKS.md', import.meta.url)

describe('docs/SERVER-CHECKS.md', () => {
  it('is exactly what the registry renders (regenerate with `npm run build && npm run docs:checks`)', async () => {
    expect(await readFile(DOC, 'utf8')).toBe(renderChecksTable())
  })

  it('every check a registry module defines is in the registry (none left out of its area list)', () => {
    const defined = [lifecycle, messages, notifications, tools, bridge, features, tasks, transports, auth].flatMap((module) => Object.values(module).filter((value) => !Array.isArray(value)))
    expect(new Set(defined)).toEqual(new Set(CHECKS))
  })

  it('lists every check id once, each with at least one cited sentence', async () => {
    const text = await readFile(DOC, 'utf8')
    const ids = CHECKS.map((def) => def.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const def of CHECKS) {
      expect(text.split(`\`${def.id}\``).length - 1, def.id).toBe(1)
      expect(def.rules.length, def.id).toBeGreaterThan(0)
    }
  })
})
