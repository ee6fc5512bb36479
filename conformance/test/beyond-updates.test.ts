import { describe, expect, it } from 'vitest'
import { beyondMismatches, listedItems } from '../src/client/beyond-checks.ts'

// Resource updates are events: the kit compares the URIs a client heard in order and counts each,
// where a list verb's items are a set.
describe('judging the resource updates a client heard', () => {
  const heard = (updated: unknown) => ({ ok: true as const, value: { updated } })

  it('passes the same URIs in the same order', () => {
    expect(beyondMismatches('updates', heard(['a', 'a', 'b']), { items: ['a', 'a', 'b'] })).toEqual([])
  })

  it('catches an update heard after its unsubscribe, another order, and one missing', () => {
    expect(beyondMismatches('updates', heard(['a', 'a', 'b', 'a']), { items: ['a', 'a', 'b'] })).toEqual([expect.stringMatching(/heard updates for \["a","a","b","a"\]/)])
    expect(beyondMismatches('updates', heard(['b', 'a']), { items: ['a', 'b'] })).toHaveLength(1)
    expect(beyondMismatches('updates', heard([]), { items: ['a'] })).toHaveLength(1)
  })

  it('reads only strings, and says so when there is no list', () => {
    expect(listedItems('updates', { updated: ['a', 7, null] })).toEqual(['a'])
    expect(beyondMismatches('updates', heard('a'), { items: ['a'] })).toEqual([expect.stringMatching(/^no updates in the answer/)])
  })
})
