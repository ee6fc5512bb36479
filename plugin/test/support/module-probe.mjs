/**
 * Module hooks (node:module register) that report every module URL the process resolves, so a
 * test can see what a start really loaded, dynamic imports and CommonJS requires through ESM
 * included. Each URL is posted on `port`; a 'flush' message is answered after every URL before it.
 */
let port
export function initialize(data) {
  port = data.port
  port.on('message', (message) => {
    if (message === 'flush') port.postMessage({ flushed: true })
  })
  port.unref()
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  port.postMessage(resolved.url)
  return resolved
}
