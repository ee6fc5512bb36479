// Pure data: who is wrong where an official verdict and ours part, read against the spec (the
// specification repository's docs/specification/<revision>/… at the commit the README names).
// `check` is the official check id, `message` (optional) a pattern its errorMessage must match;
// `wrong` is 'official' or 'ours'. A disagreement no entry matches is rendered "not yet judged":
// read the sentence and add the entry. An entry with wrong: 'official' also marks an official fail
// or warn that our kit has no verdict for (class official-wrong), so the line-up does not count it
// against the target.
export const JUDGEMENTS = [
  {
    check: 'sep-2575-server-sends-tools-list-changed-on-subscription',
    message: /^Mutated the tool list but no notifications\/tools\/list_changed arrived/,
    wrong: 'official',
    page: '2026-07-28/server/tools#list-changed-notification',
    sentence: 'When the list of available tools changes, servers that declared the `listChanged` capability **SHOULD** send a notification to clients that have opened a `subscriptions/listen` stream with `toolsListChanged: true`',
    why: 'the list never changed: the suite mutates it through a tool of its own test server (test_trigger_tool_change) and counts it untestable only on -32601, but a server without that tool answers -32602, as 2026-07-28/server/tools#error-handling has it for an unknown tool; the SHOULD was never triggered',
  },
]

/**
 * A server that does not declare a capability need not serve it: the official scenarios that
 * presuppose it fail such a server, where our `<capability>/undeclared` check passes its refusal.
 */
const optional = (capability, page, sentence) => ({
  undeclared: capability,
  wrong: 'official',
  page,
  sentence,
  why: `the target does not declare ${capability} and refuses its methods with -32601; the suite's requirement set presupposes the feature set of its own test server`,
})
JUDGEMENTS.push(
  optional('prompts', '2025-11-25/server/prompts#capabilities', 'Servers that support prompts **MUST** declare the `prompts` capability during initialization'),
  optional('resources', '2025-11-25/server/resources#capabilities', 'Servers that support resources **MUST** declare the `resources` capability'),
  optional('completions', '2025-11-25/server/utilities/completion#capabilities', 'Servers that support completions **MUST** declare the `completions` capability'),
)

/** An official pass on an isError "Tool … not found" result (lineup.mjs: vacuous). */
export const VACUOUS = {
  wrong: 'official',
  page: '2025-11-25/server/tools#error-handling',
  sentence: 'Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools',
  why: "the tool the check calls does not exist on the target; the pass judges the SDK's answer to an unknown tool (an isError result, not the JSON-RPC error the sentence names, which our tools/call-unknown-tool reports as information) as if it were the tool's outcome",
}

/** The judgement that covers one row of the line-up ({ official, class, capability }), if any. */
export function judgementOf(row) {
  if (row.class === 'undeclared') return JUDGEMENTS.find((j) => j.undeclared === row.capability)
  if (row.official.vacuous) return VACUOUS
  const check = row.official
  return JUDGEMENTS.find((j) => j.check === check.id && (!j.message || j.message.test(check.message)))
}
