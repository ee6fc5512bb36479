#!/usr/bin/env node
// The pinned Node 22 (scripts/node-line.mjs) under the name the clients table, the DeepSeek
// harness tests and their reproduction commands use: the harness and some clients need Node 22.
//
//   node scripts/node22.mjs           prints the binary's path, installing it first when needed
//   import { ensureNode22 } from './scripts/node22.mjs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defaultDir, ensureNode, NODE_PACKAGE, NODE_VERSIONS, nodeBinary } from './node-line.mjs'

export const NODE22_VERSION = NODE_VERSIONS[22]
export const NODE22_PACKAGE = NODE_PACKAGE
export const DEFAULT_NODE22_DIR = defaultDir(22)
export const node22Binary = (dir = DEFAULT_NODE22_DIR) => nodeBinary(dir)
export const ensureNode22 = (options = {}) => ensureNode({ line: 22, ...options })

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureNode22({ log: (line) => console.error(line) }))
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  }
}
