/**
 * The plugin's pure rules, for those who judge the plugin without running it: the conformance
 * kit's server mode (which names tools, plans them and reads a configuration exactly as the
 * plugin would). The low-level pieces the plugin shares with its host and the kit (schemas,
 * images, abort fan-out, timers) are @mcp-bridge/process's. Nothing reachable from here opens a connection,
 * starts a child or registers a tool; conformance/test/server-mode-modules.test.ts holds the kit to that.
 */
export { Config } from './config.ts'
export { publicToolName, MAX_PUBLIC_NAME_LENGTH } from './naming.ts'
export { declaresToolTasks, planTools, type TaskPolicy } from './discovery.ts'
export { withCredentialsAsHeader } from './url-credentials.ts'

