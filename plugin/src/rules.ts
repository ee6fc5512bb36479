/**
 * The plugin's pure rules, for those who judge or host the plugin without running it: the
 * conformance kit's server mode (which names tools, plans them and reads a configuration exactly
 * as the plugin would) and the reference host. Nothing reachable from here opens a connection,
 * starts a child or registers a tool; test/repo/server-mode-imports.test.ts holds the kit to that.
 */
export { Config } from './config.ts'
export { publicToolName, MAX_PUBLIC_NAME_LENGTH } from './naming.ts'
export { declaresToolTasks, planTools, type TaskPolicy } from './discovery.ts'
export { withCredentialsAsHeader } from './url-credentials.ts'
