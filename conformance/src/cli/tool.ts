import { createRequire } from 'node:module'

/** The kit's name and version, as reports and --version state them. */
export const TOOL = { name: 'mcp-conformance', version: (createRequire(import.meta.url)('../../package.json') as { version: string }).version }

/** What `mcp-conformance --version` prints. */
export const versionText = () => `${TOOL.name} ${TOOL.version}\n`
