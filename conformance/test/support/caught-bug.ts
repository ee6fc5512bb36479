import { expect } from 'vitest'
import { naiveClient, type Faults } from './naive-client.ts'
import { statusOf } from './scenario-status.ts'

/** A known client bug and the check that must catch it. */
export interface KnownBug {
  fault: keyof Faults
  scenario: string
  check: string
  transport?: 'stdio' | 'http'
}

/** The bug flips its check from pass (the sound naive client) to fail (the same client with the bug). */
export async function expectCaught({ fault, scenario, check, transport = 'http' }: KnownBug): Promise<void> {
  expect(await statusOf(naiveClient(), scenario, check, transport)).toBe('pass')
  expect(await statusOf(naiveClient({ [fault]: true }), scenario, check, transport)).toBe('fail')
}
