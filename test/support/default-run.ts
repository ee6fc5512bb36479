/**
 * How long a test lets the kit's whole default run take (`mcp-conformance` with no arguments: 138
 * client scenario runs, then the server checks) before it calls the run hung. It catches a hang
 * only: the run itself bounds every step by the scenarios' and the server checks' own settings.
 * One round took 90-120 s idle and 3.5-5.5 min with every core kept busy one run at a time; with
 * three other test files beside it on a loaded 2-core machine it took more than 4 min.
 */
export const WHOLE_DEFAULT_RUN_MS = 15 * 60_000
