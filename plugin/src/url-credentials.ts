/**
 * fetch refuses a URL with user-info (and its error quotes the URL, password included), so the
 * credentials move into an Authorization: Basic header, unless one was configured.
 */
export function withCredentialsAsHeader(raw: string, headers: Record<string, string>): { url: URL; headers: Record<string, string> } {
  const url = new URL(raw)
  if (!url.username && !url.password) return { url, headers }
  const user = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  url.username = ''
  url.password = ''
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return { url, headers }
  return { url, headers: { ...headers, authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } }
}
