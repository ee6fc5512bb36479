import type { ClientSession } from '../adapter.ts'
import { askThroughDriver } from './ask.ts'
import { callThroughDriver } from './call.ts'
import { disposeDriver } from './dispose.ts'
import { processesWith } from './processes.ts'
import type { DriverState } from './state.ts'

/** The driven client as a ClientSession: every view reads the driver's state at the moment it is asked. */
export function driverSession(driver: DriverState): ClientSession {
  const { channel, marker } = driver
  return {
    tools: () => driver.tools,
    onToolsChange: (listener) => {
      driver.listeners.add(listener)
      return () => driver.listeners.delete(listener)
    },
    features: () => driver.features,
    call: (publicName, args, options) => callThroughDriver(driver, publicName, args, options),
    ask: (request) => askThroughDriver(driver, request),
    state: () => driver.state,
    logs: () => driver.logs,
    protocolViolations: () => channel.violations,
    pids: () => (marker ? processesWith(marker) : []),
    orphans: () => driver.orphans,
    attachmentCount: () => 0,
    closeMs: () => driver.closeMs,
    closeFinished: () => driver.closeFinished,
    connectUnanswered: () => driver.connectUnanswered,
    leftovers: () => driver.leftovers,
    dispose: () => disposeDriver(driver),
  }
}
