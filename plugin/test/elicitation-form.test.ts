import { describe, expect, it } from 'vitest'
import { checkRequestedSchema, completeAnswer, FORM_LIMITS } from '../src/asks/elicitation-form.ts'

/** The form subset of MCP 2025-11-25 client/elicitation ("Supported Schema Types"), as a pure check. */
const quote = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)
const form = (properties: Record<string, unknown>, required?: string[]) => checkRequestedSchema({ type: 'object', properties, ...(required && { required }) }, quote)

describe('the requested schema', () => {
  it('takes every primitive the spec lists: strings with formats, numbers, booleans, and the four enum shapes', () => {
    const checked = form({
      email: { type: 'string', format: 'email', minLength: 3, maxLength: 64 },
      count: { type: 'number', minimum: 0, maximum: 10 },
      ok: { type: 'boolean', default: false },
      size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
      colour: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
      picks: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] } },
    })
    expect(checked.ok).toBe(true)
    if (!checked.ok) return
    expect(checked.fields.map((f) => f.kind)).toEqual(['string', 'number', 'boolean', 'choice', 'choice', 'choices', 'choices'])
    expect(checked.fields[3]!.options).toEqual([
      { value: 's', label: 'Small' },
      { value: 'm', label: 'Medium' },
    ])
  })

  it.each([
    [{ type: 'array', properties: {} }, /must be a JSON Schema of type "object"/],
    [{ type: 'object', properties: { a: { type: 'object' } } }, /property "a" has type "object"/],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, /property "a" is an array of free values/],
    [{ type: 'object', properties: { a: { type: 'string', format: 'phone' } } }, /property "a" has format "phone"/],
    [{ type: 'object', properties: { a: { type: 'integer', default: 'x' } } }, /property "a" has a default that is not a number/],
    [{ type: 'object', properties: { a: { type: 'string', minLength: 5, maxLength: 2 } } }, /property "a" has minLength above maxLength/],
    [{ type: 'object', properties: { a: { type: 'string', enum: ['x'], enumNames: ['X', 'Y'] } } }, /property "a" has enumNames that do not match its enum/],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, /required must list names of its properties/],
  ])('refuses %j with the reason', (schema, reason) => {
    const checked = checkRequestedSchema(schema, quote)
    expect(checked.ok).toBe(false)
    expect(!checked.ok && checked.problem).toMatch(reason)
  })

  it('bounds what a form may ask and what a person is shown', () => {
    const many = Object.fromEntries(Array.from({ length: FORM_LIMITS.maxFields + 1 }, (_, i) => [`f${i}`, { type: 'string' }]))
    expect(form(many)).toEqual({ ok: false, problem: `requestedSchema has ${FORM_LIMITS.maxFields + 1} properties, more than the ${FORM_LIMITS.maxFields} a form may ask` })
    const options = Array.from({ length: FORM_LIMITS.maxOptions + 1 }, (_, i) => `o${i}`)
    expect(form({ a: { type: 'string', enum: options } })).toMatchObject({ ok: false, problem: expect.stringMatching(new RegExp(`offers ${FORM_LIMITS.maxOptions + 1} options`)) })
    const long = form({ a: { type: 'string', title: 'x'.repeat(FORM_LIMITS.maxTitleChars + 50) } })
    expect(long.ok && long.fields[0]!.title!.length).toBe(FORM_LIMITS.maxTitleChars + 1)
  })
})

describe('the answer', () => {
  const checked = form(
    { name: { type: 'string', format: 'email' }, n: { type: 'integer', default: 2, maximum: 5 }, pick: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1 } },
    ['name'],
  )
  const fields = checked.ok ? checked.fields : []

  it('fills in defaults for the fields left out', () => {
    expect(completeAnswer(fields, { name: 'a@b.c' })).toEqual({ ok: true, content: { name: 'a@b.c', n: 2 } })
  })

  it.each([
    [{}, /the required field "name" has no value/],
    [{ name: 'not-an-email' }, /"name" is not a valid email/],
    [{ name: 'a@b.c', n: 2.5 }, /"n" is not an integer/],
    [{ name: 'a@b.c', n: 6 }, /"n" is above 5/],
    [{ name: 'a@b.c', pick: ['a', 'b'] }, /"pick" picks more than 1/],
    [{ name: 'a@b.c', pick: ['z'] }, /"pick" is not a list of the options/],
    [{ name: 'a@b.c', other: 1 }, /names "other", which is not a field of the form/],
    ['text', /the content is not an object/],
  ])('refuses %j before it is sent', (content, reason) => {
    const result = completeAnswer(fields, content)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.problem).toMatch(reason)
  })
})
