// Types for the start benchmarks' shared child script.
export const FIRST_TOOL_CHILD: string
