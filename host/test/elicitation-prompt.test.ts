import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { ElicitationField, ElicitationRequest } from '@mcp-bridge/plugin'
import { converse, terminalElicitation } from '../src/elicitation.ts'
import { scriptedPerson } from './support/scripted-person.ts'

const FIELDS: ElicitationField[] = [
  { name: 'name', required: true, kind: 'string', title: 'Your name' },
  { name: 'age', required: false, kind: 'integer', default: 30 },
  { name: 'plan', required: false, kind: 'choice', options: [{ value: 'free', label: 'Free' }, { value: 'pro', label: 'Pro' }] },
  { name: 'tags', required: false, kind: 'choices', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] },
]

const form = (message = 'Who are you?'): ElicitationRequest => ({ serverName: 'shop', message, mode: 'form', fields: FIELDS, signal: new AbortController().signal })

/** A person typing `lines` in order; what they were shown is kept. */
const person = scriptedPerson

describe('the terminal elicitation prompt', () => {
  it('names the server, asks field by field, re-asks a value of the wrong kind, and sends after review', async () => {
    const p = person(['y', 'Ada', 'thirty', '', '2', '1, b', 'y'])
    expect(await converse(form(), p.ask, p.say)).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', tags: ['a', 'b'] } })
    expect(p.shown[0]).toContain('MCP server "shop" asks: Who are you?')
    expect(p.shown).toContain('  type a whole number')
    expect(p.shown.some((line) => line.includes('Enter for 30'))).toBe(true)
  })

  it('declines, cancels, and lets the person edit before sending', async () => {
    expect(await converse(form(), person(['n']).ask, () => {})).toEqual({ action: 'decline' })
    expect(await converse(form(), person(['']).ask, () => {})).toEqual({ action: 'cancel' })
    const p = person(['y', 'Ada', '', '', '', 'e', 'Bob', '', '', '', 'y'])
    expect(await converse(form(), p.ask, p.say)).toEqual({ action: 'accept', content: { name: 'Bob' } })
  })

  it("shows a URL with its host and never opens it; the server's words cannot drive the terminal", async () => {
    const p = person(['y'])
    const request: ElicitationRequest = { serverName: 'shop', message: 'Pay \u001b]0;PWNED\u0007 here', mode: 'url', url: 'https://pay.example.com/x', domain: 'pay.example.com', signal: new AbortController().signal }
    expect(await converse(request, p.ask, p.say)).toEqual({ action: 'accept' })
    expect(p.shown.join('\n')).toContain('(host pay.example.com)')
    expect(p.shown.join('\n')).toContain('https://pay.example.com/x')
    expect(p.shown.join('\n')).not.toContain('\u001b')
  })

  it('declines without asking when its input is not a terminal', async () => {
    const output = new PassThrough()
    const service = terminalElicitation({ input: new PassThrough(), output })
    expect(await service.elicit(form())).toEqual({ action: 'decline' })
    expect(output.read()).toBeNull()
  })

  it('reads a terminal line by line, and cancels when the ask is aborted', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true })
    const service = terminalElicitation({ input, output: new PassThrough() })
    const answered = service.elicit(form())
    input.write('y\nAda\n\n\n\ny\n')
    expect(await answered).toEqual({ action: 'accept', content: { name: 'Ada' } })
    const stop = new AbortController()
    const pending = service.elicit({ ...form(), signal: stop.signal })
    stop.abort()
    expect(await pending).toEqual({ action: 'cancel' })
  })
})
