/**
 * The plugin's pure rules, for those who judge or host the plugin without running it: the
 * conformance kit's server mode (which names tools, plans them and reads a configuration exactly
 * as the plugin would) and the reference host. Nothing reachable from here opens a connection,
 * starts a child or registers a tool; conformance/test/server-mode-modules.test.ts holds the kit to that.
 */
export { Config } from './config.ts'
export { publicToolName, MAX_PUBLIC_NAME_LENGTH } from './naming.ts'
export { declaresToolTasks, planTools, type TaskPolicy } from './discovery.ts'
export { withCredentialsAsHeader } from './url-credentials.ts'

// The pieces the reference host (@mcp-bridge/host) shares with the plugin, so that its registry
// validates arguments, sniffs images and cancels exactly as the plugin does.
export { errorMessage } from './errors.ts'
export { SchemaCompiler, uncheckedPatternsWarning, type CompiledSchema } from './json-schema.ts'
export { extensionOf, IMAGE_MEDIA_TYPES, sniffImageType, type ImageMediaType } from './images.ts'
export { NEVER_ABORTED, onAbort } from './abort-listeners.ts'
export { isPlainRecord, isRecord } from './records.ts'
export { systemClock, type Clock } from './clock.ts'
export { Debouncer } from './debounce.ts'
