export { spawnGroup, signalGroup, groupGone, groupsSupported, type GroupProcess, type SpawnGroupOptions } from './group.ts'
export { killEverything, trackGroup, untrackGroup } from './registry.ts'
export { makeTempDir, type TempDir } from './temp-dir.ts'
export { handleSignals, onShutdown, signalExitCode, DEFAULT_SIGNAL_GRACE_MS, type SignalOptions } from './shutdown.ts'
