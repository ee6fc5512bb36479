/** Thrown by a step that cannot go on (a wait that timed out); the run skips to teardown. */
export class StepFailed extends Error {}

/** Thrown when the scenario does not apply to the client under test; the run skips to teardown. */
export class NotApplicable extends Error {}
