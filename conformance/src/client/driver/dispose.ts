import { survivors } from '../processes.ts'
import { descendants, processesWith, processesWithEnv } from './processes.ts'
import type { DriverState } from './state.ts'

/**
 * Closes the client through its driver, then ends the driver: what the client left running is
 * found on the way (orphans, leftovers) for the runner to judge, report and stop.
 */
export async function disposeDriver(driver: DriverState): Promise<void> {
  const { channel, bounds, logs, marker } = driver
  // What the driver started, known while it still runs: a process that left its group
  // (setsid) is found by descent, not by the group kill that ends the driver.
  const family = new Set(channel.pid ? descendants(channel.pid) : [])
  if (driver.connectUnanswered) {
    driver.closeFinished = false
    await channel.end(0)
    return await findLeftovers(driver, family)
  }
  const asked = performance.now()
  const closed = await channel.request({ op: 'close' }, bounds.closeMs)
  driver.closeMs = Math.round(performance.now() - asked)
  if (!closed.ok) logs.push(`[driver] close failed: ${closed.error}`)
  if ('unanswered' in closed) driver.closeFinished = false
  driver.state = 'stopped'
  // Judged while the driver still runs: once it exits, its children lose their stdin and
  // exit too, which would hide a client that never stopped its server.
  if (marker) driver.orphans = await lingering(marker)
  for (const pid of channel.pid ? descendants(channel.pid) : []) family.add(pid)
  await channel.end()
  await findLeftovers(driver, family)
}

/** What the driver's tree left running once it ended (the runner judges, reports and stops them). */
async function findLeftovers(driver: DriverState, family: Set<number>): Promise<void> {
  for (const pid of processesWithEnv(driver.runMark)) family.add(pid)
  // The group kill needs a moment to land; what is still alive after it escaped the group.
  driver.leftovers = await survivors([...family])
}

/** The servers still running 2 s after the client answered close (exit is not instantaneous). */
async function lingering(marker: string): Promise<number[]> {
  for (let i = 0; i < 40 && processesWith(marker).length; i++) await new Promise((resolve) => setTimeout(resolve, 50))
  return processesWith(marker)
}
