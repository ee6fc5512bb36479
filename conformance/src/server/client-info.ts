/** How the kit names itself to a server: clientInfo of initialize, and of a modern request's _meta. */
import { createRequire } from 'node:module'

export const CLIENT_INFO = { name: 'mcp-conformance', version: (createRequire(import.meta.url)('../../package.json') as { version: string }).version }
