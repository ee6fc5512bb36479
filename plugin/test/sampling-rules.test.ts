import { describe, expect, it } from 'vitest'
import { SamplingLimits, WINDOW_MS } from '../src/asks/sampling-limits.ts'
import { checkSampling, MAX_MESSAGES, pickModel } from '../src/asks/sampling-request.ts'
import type { SamplingConfig } from '../src/asks/sampling-config.ts'

/** The pure rules of sampling: the caps over time, the model a hint picks, what reaches the model. */
const CONFIG: SamplingConfig = { enabled: true, maxTokens: 100, overMaxTokens: 'clamp', requestsPerMinute: 2, maxConcurrent: 1, maxPromptChars: 10, maxReplyChars: 10, models: [] }
const quote = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)
const user = (text: string) => ({ role: 'user', content: { type: 'text', text } })

describe('SamplingLimits', () => {
  it('takes requestsPerMinute in any 60 seconds, and one more once the oldest is a window old', () => {
    let now = 1_000
    const limits = new SamplingLimits({ requestsPerMinute: 2, maxConcurrent: 10 }, () => now)
    const first = limits.admit()
    expect(first.ok).toBe(true)
    now += 10
    expect(limits.admit().ok).toBe(true)
    expect(limits.admit()).toEqual({ ok: false, why: 'more than 2 sampling request(s) within a minute (sampling.requestsPerMinute)' })
    now = 1_000 + WINDOW_MS - 1
    expect(limits.admit().ok).toBe(false)
    now = 1_000 + WINDOW_MS
    expect(limits.admit().ok).toBe(true)
  })

  it('answers maxConcurrent at once; a release (once, however often called) frees a place', () => {
    const limits = new SamplingLimits({ requestsPerMinute: 100, maxConcurrent: 1 }, () => 0)
    const held = limits.admit()
    expect(limits.admit()).toEqual({ ok: false, why: '1 sampling request(s) are already being answered (sampling.maxConcurrent)' })
    if (!held.ok) throw new Error('not admitted')
    held.release()
    held.release()
    const next = limits.admit()
    expect(next.ok).toBe(true)
    expect(limits.admit().ok).toBe(false)
  })
})

describe('pickModel', () => {
  const models = ['claude-3-sonnet', 'deepseek-chat', 'deepseek-reasoner']
  it('takes hints in order, each as a case-insensitive substring of a configured model', () => {
    expect(pickModel({ hints: [{ name: 'gpt-4' }, { name: 'SONNET' }, { name: 'deepseek' }] }, models)).toBe('claude-3-sonnet')
    expect(pickModel({ hints: [{ name: 'reasoner' }] }, models)).toBe('deepseek-reasoner')
  })
  it('leaves the choice to the host with no list, no hints or no match; priorities alone pick nothing', () => {
    expect(pickModel({ hints: [{ name: 'chat' }] }, [])).toBeUndefined()
    expect(pickModel({ costPriority: 1, intelligencePriority: 0 }, models)).toBeUndefined()
    expect(pickModel({ hints: [{ name: 'gpt' }, { name: '' }, {}] }, models)).toBeUndefined()
  })
})

describe('checkSampling', () => {
  it('cuts the system prompt and the messages to one budget, in that order', () => {
    const checked = checkSampling({ messages: [user('abcdef'), user('ghijkl')], systemPrompt: 'SYSTEM', maxTokens: 5 }, CONFIG, quote)
    expect(checked).toEqual({ ok: true, request: { systemPrompt: 'SYSTEM', messages: [{ role: 'user', text: 'abcd…' }, { role: 'user', text: '…' }], maxTokens: 5 } })
  })
  it('clamps maxTokens to the cap, or refuses it with overMaxTokens: refuse', () => {
    expect(checkSampling({ messages: [user('a')], maxTokens: 1_000 }, CONFIG, quote)).toMatchObject({ ok: true, request: { maxTokens: 100 } })
    expect(checkSampling({ messages: [user('a')], maxTokens: 1_000 }, { ...CONFIG, overMaxTokens: 'refuse' }, quote)).toEqual({ ok: false, problem: 'maxTokens 1000 is more than the 100 this client allows (sampling.maxTokens)' })
  })
  it('refuses tools, non-text content and too many messages', () => {
    expect(checkSampling({ messages: [user('a')], maxTokens: 1, tools: [] }, CONFIG, quote)).toMatchObject({ ok: false, problem: expect.stringContaining('sampling.tools') })
    expect(checkSampling({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'audio', data: '', mimeType: 'audio/wav' }] }], maxTokens: 1 }, CONFIG, quote)).toMatchObject({ ok: false, problem: 'messages[0] holds "audio" content; this client passes text only to the host\'s model' })
    expect(checkSampling({ messages: Array.from({ length: MAX_MESSAGES + 1 }, () => user('a')), maxTokens: 1 }, CONFIG, quote)).toMatchObject({ ok: false })
  })
  it('passes stop sequences within their bounds and ignores includeContext', () => {
    const checked = checkSampling({ messages: [user('a')], maxTokens: 1, stopSequences: ['\n\n', 'x'.repeat(65), 3], includeContext: 'allServers', temperature: 0.5 }, CONFIG, quote)
    expect(checked).toEqual({ ok: true, request: { messages: [{ role: 'user', text: 'a' }], maxTokens: 1, stopSequences: ['\n\n'], temperature: 0.5 } })
  })
})
