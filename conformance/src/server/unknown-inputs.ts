/** Input no server can know, which the probes send to see it refused: the kit's own names. */

/** A log level no revision defines. */
export const UNKNOWN_LEVEL = 'mcp-conformance-no-such-level'

/** A list cursor no server issued (tasks/list and the tools, resources and prompts lists). */
export const UNKNOWN_CURSOR = 'mcp-conformance-no-such-cursor'
