import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

const pending: Array<() => unknown> = []

// Resources are closed after each test, newest first, whether the test passed or not.
afterEach(async () => {
  for (const close of pending.splice(0).reverse()) await close()
})

/** Registers `resource` to be closed after the current test; returns it. */
export function afterTest<T>(resource: T, close: (resource: T) => unknown): T {
  pending.push(() => close(resource))
  return resource
}

/** A fresh temporary directory, removed after the test. */
export function tempDir(prefix: string): string {
  return afterTest(mkdtempSync(join(tmpdir(), prefix)), (dir) => rmSync(dir, { recursive: true, force: true }))
}
