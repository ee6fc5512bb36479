import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { ANY_OBJECT } from '../src/any-object.ts'

/** The zod schema ANY_OBJECT replaced in the plugin's SDK requests: it must accept and refuse the same values, in the same words. */
const Passthrough = z.object({}).passthrough()

describe('ANY_OBJECT', () => {
  it('hands back the very object it was given, members untouched (no copy per result)', async () => {
    const result = { content: [{ type: 'text', text: 'x'.repeat(1000) }], structuredContent: { n: 1 }, extra: true }
    const checked = await ANY_OBJECT['~standard'].validate(result)
    expect(checked.issues).toBeUndefined()
    expect((checked as { value: unknown }).value).toBe(result)
  })

  it.each([null, undefined, [1], 'text', 3, true])('refuses %j as zod’s z.object({}).passthrough() does, in its words', async (value) => {
    const checked = await ANY_OBJECT['~standard'].validate(value)
    const zod = Passthrough.safeParse(value)
    expect(zod.success).toBe(false)
    expect(checked.issues?.map((issue) => issue.message)).toEqual(zod.error!.issues.map((issue) => issue.message))
  })
})
