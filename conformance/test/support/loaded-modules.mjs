// `node --import` this file to write the URL of every ES module the process loads, one a line, to
// the file named by $LOADED_MODULES_FILE. The hooks run on a thread of their own; they only watch.
import { register } from 'node:module'

register('./loaded-modules-hooks.mjs', import.meta.url, { data: { file: process.env.LOADED_MODULES_FILE } })
