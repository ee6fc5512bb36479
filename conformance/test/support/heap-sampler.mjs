/* global setInterval */
// Preloaded into the kit (`node --expose-gc --import this-file …`): samples the memory the kit
// holds, heap plus array buffers (a pipe's chunks, held lines), after a full collection, so that
// garbage not yet collected is not counted; the peak is written to $HEAP_PEAK_FILE at exit.
import { writeFileSync } from 'node:fs'

const file = process.env.HEAP_PEAK_FILE
let peak = 0
const sample = () => {
  globalThis.gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  peak = Math.max(peak, heapUsed + arrayBuffers)
}
setInterval(sample, 100).unref()
process.on('exit', () => {
  sample()
  if (file) writeFileSync(file, JSON.stringify({ peak }))
})
