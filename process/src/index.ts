export { spawnGroup, signalGroup, killGroup, groupGone, groupsSupported, type GroupProcess, type SpawnGroupOptions } from './group.ts'
export { killEverything, trackGroup, untrackGroup } from './registry.ts'
export { makeTempDir, type TempDir } from './temp-dir.ts'
export { tolerateClosedOutput } from './pipes.ts'
export { watchParent, DEFAULT_PARENT_POLL_MS, type ParentWatchOptions } from './parent-watch.ts'
export { stopGroup, type Escalation, type StopOptions } from './stop.ts'
export { handleSignals, onShutdown, signalExitCode, DEFAULT_SIGNAL_GRACE_MS, type SignalOptions } from './shutdown.ts'
export { readInputFile, readInputFileSync, InputFileError, type InputFileOptions } from './input-file.ts'
export { argvErrorMessage, integerOption, nearestWord, usageErrorText, MAX_TIMER_MS } from './argv.ts'
export { descendantsOf, groupMembers, killRecorded, processTable, stillRunning, type ProcessEntry } from './tree.ts'
export { isTimeoutReason, startDeadline, withinDeadline, type Deadline } from './deadline.ts'
export { LineReader, type LineEvent } from './line-reader.ts'
export { oversizedRequestMethod, oversizedResponseId } from './oversized-line.ts'
export { invalidRequest, refusedAnswer } from './json-rpc-problems.ts'
export { isWriteRefusal, PipeWriter } from './pipe-writer.ts'
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
export { matchesGlob } from './glob.ts'
export { collectingUnchecked, linearRegExp, toRe2Syntax, withinMatchBudget, MATCH_BUDGET } from './linear-regexp.ts'
export { StderrTail, stderrExcerpt } from './stderr-tail.ts'
// Low-level pieces the plugin, its reference host and the kit share: untrusted JSON Schemas and
// values, images, abort fan-out, timers. None of them knows MCP.
export {
  JSON_SCHEMA_TYPES,
  MAX_VIOLATION_CHARS,
  MAX_VIOLATIONS,
  SchemaCompiler,
  schemaProblem,
  uncheckedPatternsWarning,
  type CompiledSchema,
  type Validate,
} from './json-schema.ts'
export { jsonByteLength, jsonFitsInBytes, jsonTextLength } from './json-size.ts'
export { jsonEqual } from './json-equal.ts'
export { isPlainRecord, isRecord } from './records.ts'
export { ANY_OBJECT, type AnyObjectSchema } from './any-object.ts'
export { parseJson } from './parse-json.ts'
export { decodeBase64, extensionOf, IMAGE_MEDIA_TYPES, sniffImageType, type ImageMediaType } from './images.ts'
export { NEVER_ABORTED, NOTHING_TO_RELEASE, onAbort, withAbortScope } from './abort-listeners.ts'
export { settlesWithin, untilAborted, waitAtMost } from './wait.ts'
export { systemClock, type Clock } from './clock.ts'
export { Debouncer } from './debounce.ts'
export { Serial } from './serial.ts'
export { isWorthSaying, RepeatCounter } from './repeats.ts'
export { BoundedQueue } from './bounded-queue.ts'
export { concatBytes } from './bytes.ts'
export { limitStream, readBoundedText } from './bounded-body.ts'
export { EventSizeScanner, sseField } from './sse.ts'
export { errorMessage, errorMessageWithCause, safeCause, withoutStack, MAX_QUOTED_ERROR_CHARS } from './error-message.ts'
