/** The kit's public API: run client scenarios or server checks, and write the reports. */
export * from './model.ts'
export { runClientScenarios, listScenarios, loadScenarios, bridgeAdapter, type ClientRunOptions } from './client/index.ts'
export type { ClientAdapter, ClientSession, ServerTarget as ClientTarget, ToolView, CallOutcome } from './client/index.ts'
export { runServerSuite } from './server/run.ts'
// results.json's spec-revision matrix (`server --spec-version`), an optional part of format 1.
export type { ReportWithRevisions, RevisionSummary, ServerSuite, SuiteRevision } from './report/revisions.ts'
export { writeReports } from './report/write.ts'
export { loadBaseline } from './baseline.ts'
export { assembleReport } from './report/assemble.ts'
// The plugin hosted by the DeepSeek harness' ToolRuntime; the caller brings the harness (hosts/dsh/kit.mjs).
export { createDshAdapter, type DshHost, type DshRoot, type DshModel } from './client/dsh-adapter.ts'
export { formatMarkdownSummary, type MarkdownOptions } from './report/markdown.ts'
export { formatGithubAnnotations } from './report/annotations.ts'
