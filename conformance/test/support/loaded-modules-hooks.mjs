// Module hooks for loaded-modules.mjs: each load appends its URL, then loads as Node would.
import { appendFileSync } from 'node:fs'

let file

export async function initialize(data) {
  file = data.file
}

export async function load(url, context, nextLoad) {
  appendFileSync(file, `${url}\n`)
  return nextLoad(url, context)
}
