import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { descendantsOf, groupMembers, killRecorded, processTable, stillRunning } from '../src/index.ts'

/**
 * A shell that starts a child in its own group and a child in a new session (setsid), says both
 * pids on stdout, and then exits: only a record taken while it lived ties them to it.
 */
const TREE = `
sleep 310 &
echo "$!"
setsid sleep 311 </dev/null >/dev/null 2>&1 &
echo "$!"
read _
`

const linux = process.platform === 'linux'

describe.runIf(linux)('the process tree', () => {
  it('finds descendants by descent (a setsid one too), sees them outlive their parent, and kills them by recorded pid', async () => {
    const shell = spawn('/bin/sh', ['-c', TREE], { stdio: ['pipe', 'pipe', 'ignore'], detached: true })
    const pids = await new Promise<number[]>((resolve) => {
      let text = ''
      shell.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString()
        const lines = text.trim().split('\n')
        if (lines.length === 2) resolve(lines.map(Number))
      })
    })
    // setsid forks when it leads a group already; its child is found below it either way.
    await expect.poll(() => descendantsOf(shell.pid!)!.filter((e) => e.name === 'sleep').length).toBe(2)
    const recorded = descendantsOf(shell.pid!)!
    expect(recorded.map((e) => e.pid)).toEqual(expect.arrayContaining([pids[0]]))
    const own = recorded.filter((e) => e.pgid === shell.pid).map((e) => e.pid)
    expect(own).toContain(pids[0])
    expect(recorded.some((e) => e.name === 'sleep' && e.pgid === e.pid)).toBe(true)
    expect(groupMembers(shell.pid!)!.map((e) => e.pid)).toEqual(expect.arrayContaining([shell.pid, pids[0]]))

    const exited = new Promise((resolve) => shell.once('exit', resolve))
    shell.stdin!.end('\n')
    await exited
    // Adopted by init: descent no longer finds them, the record does.
    expect(descendantsOf(shell.pid!)).toEqual([])
    const left = stillRunning(recorded).filter((e) => e.name === 'sleep')
    expect(left).toHaveLength(2)
    expect(killRecorded(recorded)).toEqual(expect.arrayContaining(left.map((e) => e.pid)))
    await expect.poll(() => stillRunning(recorded)).toEqual([])
  })

  it('a reused pid is not a survivor: the start time must match', () => {
    const self = processTable()!.find((e) => e.pid === process.pid)!
    expect(stillRunning([self])).toEqual([self])
    expect(stillRunning([{ ...self, start: `${self.start}1` }])).toEqual([])
  })
})
