import { DriverChannel, DriverError } from './channel.ts'
import type { DriverOptions, DriverServer } from './protocol.ts'
import type { DriverState } from './state.ts'

/**
 * Asks the driver to connect its client, then for the tools once. A failed or unanswered connect
 * is the client's state (stopped), judged by the run; a driver that exits at once is a harness error.
 */
export async function connectDriver(driver: DriverState, server: DriverServer, options: DriverOptions): Promise<void> {
  const { channel, bounds, logs } = driver
  const connected = await channel.request({ op: 'connect', server, options }, bounds.connectMs)
  // A failed connect may declare features too: refusing a bad credential is an auth scenario's point.
  if ('features' in connected && connected.features) driver.features = connected.features
  if (connected.ok) {
    // Asked once: a client that re-lists on request would otherwise be charged for the kit's polling.
    const listed = await channel.request({ op: 'list' }, bounds.listMs)
    if (listed.ok) driver.setTools(listed.tools ?? [])
    else logs.push(`[driver] list failed: ${listed.error}`)
    driver.state = 'connected'
  } else if (await exitedNow(channel)) {
    // A driver that cannot start (a typo in --driver, a missing package) is the harness's problem.
    await channel.end(0)
    throw new DriverError(`the driver exited before it connected: ${connected.error}`)
  } else if ('unanswered' in connected) {
    // No answer at all: a driver that never speaks, or a client stuck connecting. The runner
    // tells them apart by whether the client reached the fixture (run/start.ts).
    driver.connectUnanswered = true
    driver.state = 'stopped'
    logs.push(`[driver] ${connected.error}`)
  } else {
    driver.state = 'stopped'
    logs.push(`[driver] connect failed: ${connected.error}`)
  }
}

/** Whether the driver process has ended (checked without waiting more than a moment). */
async function exitedNow(channel: DriverChannel): Promise<boolean> {
  return Promise.race([channel.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 100))])
}
