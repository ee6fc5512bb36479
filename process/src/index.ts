export { spawnGroup, signalGroup, groupGone, groupsSupported, type GroupProcess, type SpawnGroupOptions } from './group.ts'
export { killEverything, trackGroup, untrackGroup } from './registry.ts'
export { makeTempDir, type TempDir } from './temp-dir.ts'
export { tolerateClosedOutput } from './pipes.ts'
export { watchParent, DEFAULT_PARENT_POLL_MS, type ParentWatchOptions } from './parent-watch.ts'
export { handleSignals, onShutdown, signalExitCode, DEFAULT_SIGNAL_GRACE_MS, type SignalOptions } from './shutdown.ts'
export { readInputFile, readInputFileSync, InputFileError, type InputFileOptions } from './input-file.ts'
export { argvErrorMessage, integerOption, nearestWord, usageErrorText, MAX_TIMER_MS } from './argv.ts'
export { descendantsOf, groupMembers, killRecorded, processTable, stillRunning, type ProcessEntry } from './tree.ts'
export { isTimeoutReason, startDeadline, withinDeadline, type Deadline } from './deadline.ts'
export { LineReader, type LineEvent } from './line-reader.ts'
// The untrusted-text rules: whatever a peer says passes through these before a log or report.
export {
  configSecrets,
  createLearningRedactor,
  createRedactor,
  isSecretName,
  isSecretValue,
  quoteUntrusted,
  redactSecrets,
  redactUrl,
  urlSecrets,
  REDACTED,
  type LearningRedact,
  type Redact,
} from './redact.ts'
export { escapeControls, escapeControlsInJson } from './controls.ts'
export { collectingUnchecked, linearRegExp, toRe2Syntax, withinMatchBudget, MATCH_BUDGET } from './linear-regexp.ts'
export { StderrTail, stderrExcerpt } from './stderr-tail.ts'
