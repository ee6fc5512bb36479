/**
 * Setup of the fast tier (vitest.unit.config.ts): a test listed there must be pure logic, so
 * starting a child process (an npm install is one) or opening a socket fails it at once with one
 * line saying where it belongs, instead of the tier silently growing slow.
 */

import childProcess from 'node:child_process'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'

const refuse = (what: string) => () => {
  throw new Error(`the unit tier runs pure logic only, and this test ${what}: leave it to npm test (remove it from vitest.unit.config.ts)`)
}

const spawners = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const
for (const name of spawners) Object.assign(childProcess, { [name]: refuse(`starts a child process (child_process.${name})`) })
net.Server.prototype.listen = refuse('listens on a socket')
net.Socket.prototype.connect = refuse('connects a socket')
// `import { spawn } from 'node:child_process'` binds to the ESM view of the module: update it too.
syncBuiltinESMExports()
