/**
 * The authorization probe (HTTP only): what a client without credentials meets. It sends none of
 * the configured headers, which may carry credentials; each exchange is bounded by the run's
 * request timeout and reads at most MAX_BODY bytes. Verdicts: ../evaluate/auth.ts.
 */
import { randomUUID } from 'node:crypto'
import { parseJson, startDeadline } from '@mcp-bridge/process'
import { CLIENT_INFO } from '../client-info.ts'
import { asksForAuthorization, type AuthObservation, type HttpAnswer } from '../evaluate/auth.ts'
import { bearerChallenge } from '../evaluate/auth-challenge.ts'
import { cut } from '../quote.ts'
import { LATEST_REVISION } from '../spec.ts'

/** A metadata document larger than this is not read on: no real one comes close. */
const MAX_BODY = 64 * 1024
const MAX_HEADER = 2_000
const PRM = '/.well-known/oauth-protected-resource'
const ASM = '/.well-known/oauth-authorization-server'

interface Ask {
  method: 'GET' | 'POST' | 'DELETE'
  url: string
  headers?: Record<string, string>
  body?: string
  /** Read and parse the body (metadata); otherwise only the status and the challenge matter. */
  read?: boolean
}

async function readBounded(body: ReadableStream<Uint8Array>, max: number): Promise<string | undefined> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > max) return undefined
      chunks.push(value)
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function ask(request: Ask, timeoutMs: number, onHeaders?: (response: Response) => Promise<void>): Promise<HttpAnswer> {
  const answer: HttpAnswer = { method: request.method, url: cut(request.url, 300) }
  const deadline = startDeadline(timeoutMs)
  try {
    const response = await follow(request, deadline.signal)
    answer.status = response.status
    const challenge = response.headers.get('www-authenticate')
    // Kept raw (bounded) to be parsed; ../evaluate/auth.ts redacts whatever it quotes.
    if (challenge !== null) answer.challenge = challenge.slice(0, MAX_HEADER)
    await onHeaders?.(response)
    if (request.read && response.body) {
      const text = await readBounded(response.body, MAX_BODY)
      if (text !== undefined) answer.json = parseJson(text)
    } else await response.body?.cancel().catch(() => {})
  } catch (error) {
    answer.error = cut(error instanceof Error ? error.message : String(error), 200)
  } finally {
    deadline.clear()
  }
  return answer
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5

/**
 * A redirect to the same origin is followed, as the run's own exchanges do (../wire/http-post.ts),
 * keeping the method for 307/308; one to another origin is not, and is what the probe saw.
 */
async function follow(request: Ask, signal: AbortSignal): Promise<Response> {
  let url = new URL(request.url)
  let method: string = request.method
  let body = request.body
  for (let hops = 0; ; hops++) {
    const response = await fetch(url, { method, headers: request.headers ?? {}, body, signal, redirect: 'manual' })
    const location = response.headers.get('location')
    if (!REDIRECTS.has(response.status) || location === null || hops >= MAX_REDIRECTS) return response
    const next = new URL(location, url)
    if (next.origin !== url.origin) return response
    await response.body?.cancel().catch(() => {})
    if (response.status !== 307 && response.status !== 308) {
      method = 'GET'
      body = undefined
    }
    url = next
  }
}

const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 'mcp-conformance-auth-probe', method: 'initialize', params: { protocolVersion: LATEST_REVISION, capabilities: {}, clientInfo: CLIENT_INFO } })

/** `/.well-known/<name>` inserted between the origin and the path (RFC 9728 §3.1, RFC 8414 §3), then at the root. */
function wellKnown(endpoint: URL, name: string): string[] {
  const path = endpoint.pathname.replace(/\/$/, '')
  const root = `${endpoint.origin}${name}`
  return path ? [`${endpoint.origin}${name}${path}`, root] : [root]
}

function httpUrl(value: string | undefined, base: URL): URL | undefined {
  if (value === undefined) return undefined
  try {
    const url = new URL(value, base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    return undefined
  }
}

export async function probeAuth(endpoint: string, timeoutMs: number): Promise<AuthObservation> {
  const url = new URL(endpoint)
  // A server without authorization may open a session for the probe's initialize: it is ended again.
  const anonymous = await ask({ method: 'POST', url: endpoint, headers: POST_HEADERS, body: INITIALIZE }, timeoutMs, async (response) => {
    const session = response.headers.get('mcp-session-id')
    if (response.ok && session) {
      await response.body?.cancel().catch(() => {})
      await ask({ method: 'DELETE', url: endpoint, headers: { 'mcp-session-id': session } }, timeoutMs)
    }
  })
  const obs: AuthObservation = { anonymous, wellKnown: [], serverMetadata: [], fallback: [] }
  if (!asksForAuthorization(obs)) return obs
  const token = `mcp-conformance-invalid-${randomUUID()}`
  obs.invalidToken = await ask({ method: 'POST', url: endpoint, headers: { ...POST_HEADERS, authorization: `Bearer ${token}` }, body: INITIALIZE }, timeoutMs)
  const named = httpUrl(bearerChallenge(anonymous.challenge)?.params.resource_metadata, url)
  if (named) obs.named = await ask({ method: 'GET', url: named.href, read: true }, timeoutMs)
  for (const at of wellKnown(url, PRM)) obs.wellKnown.push(await ask({ method: 'GET', url: at, read: true }, timeoutMs))
  // 2025-03-26: the authorization base URL is the endpoint's origin; its discovery requests carry the revision.
  const discovery = { 'mcp-protocol-version': '2025-03-26' }
  for (const at of wellKnown(url, ASM).reverse()) obs.serverMetadata.push(await ask({ method: 'GET', url: at, headers: discovery, read: true }, timeoutMs))
  if (!obs.serverMetadata.some((a) => a.status === 200 && typeof a.json === 'object' && a.json !== null)) {
    obs.fallback.push(await ask({ method: 'GET', url: `${url.origin}/authorize`, headers: discovery }, timeoutMs))
    obs.fallback.push(await ask({ method: 'POST', url: `${url.origin}/token`, headers: { ...discovery, 'content-type': 'application/x-www-form-urlencoded' }, body: '' }, timeoutMs))
  }
  return obs
}
