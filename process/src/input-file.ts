import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { open } from 'node:fs/promises'

/**
 * Reading a file a user names (a config, a behaviour, a scenario, a baseline) without letting it
 * block or exhaust the process: a FIFO would block the read forever (open() itself waits for a
 * writer), a device can stream without end, a directory cannot be read, and a huge file would be
 * parsed whole (a 120 MB cordis.yml took over 120 s and 3.4 GB). Each is refused with one line.
 *
 * The file is opened non-blocking (a FIFO opens at once), then checked on the open descriptor (so
 * a file swapped between a check and the open cannot slip through), then read to at most
 * `maxBytes + 1` bytes (a file that grows past the cap while read is refused too).
 */
export class InputFileError extends Error {
  override name = 'InputFileError'
  constructor(
    readonly path: string,
    /** What is wrong, for a caller that names the file itself: "is a FIFO (named pipe), …". */
    readonly reason: string,
    what: string,
  ) {
    super(`${what} ${path} ${reason}`)
  }
}

export interface InputFileOptions {
  /** Refused above this many bytes. */
  maxBytes: number
  /** How the message names the file, e.g. "the config file". */
  what: string
}

/** O_NONBLOCK where the platform has it (not Windows, which has no FIFOs to block on). */
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

export function readInputFileSync(path: string, options: InputFileOptions): string {
  let fd: number
  try {
    fd = openSync(path, FLAGS)
  } catch (error) {
    throw new InputFileError(path, `cannot be read: ${(error as Error).message}`, options.what)
  }
  try {
    check(fstatSync(fd), path, options)
    const content = new CappedContent(path, options)
    let chunk = content.next()
    while (content.keep(chunk, readSync(fd, chunk, 0, chunk.length, null))) chunk = content.next()
    return content.text()
  } finally {
    closeSync(fd)
  }
}

export async function readInputFile(path: string, options: InputFileOptions): Promise<string> {
  let handle
  try {
    handle = await open(path, FLAGS)
  } catch (error) {
    throw new InputFileError(path, `cannot be read: ${(error as Error).message}`, options.what)
  }
  try {
    check(await handle.stat(), path, options)
    const content = new CappedContent(path, options)
    let chunk = content.next()
    while (content.keep(chunk, (await handle.read(chunk, 0, chunk.length, null)).bytesRead)) chunk = content.next()
    return content.text()
  } finally {
    await handle.close()
  }
}

/**
 * The bytes read so far, for both readers: each read asks for at most one byte past the cap, so a
 * file that grew past it while read shows itself without being read whole.
 */
class CappedContent {
  private readonly chunks: Buffer[] = []
  private total = 0
  constructor(
    private readonly path: string,
    private readonly options: InputFileOptions,
  ) {}

  /** The buffer for the next read. */
  next(): Buffer {
    return Buffer.allocUnsafe(Math.min(1 << 20, this.options.maxBytes + 1 - this.total))
  }

  /** Keeps the `read` bytes of `chunk`; false at the end of the file, an error past the cap. */
  keep(chunk: Buffer, read: number): boolean {
    if (read === 0) return false
    this.chunks.push(chunk.subarray(0, read))
    this.total += read
    if (this.total > this.options.maxBytes) throw tooLarge(this.total, this.path, this.options, true)
    return true
  }

  text(): string {
    return Buffer.concat(this.chunks, this.total).toString('utf8')
  }
}

function check(stats: Stats, path: string, options: InputFileOptions): void {
  if (!stats.isFile()) throw new InputFileError(path, `is ${kindOf(stats)}, not a regular file: give the path of a file`, options.what)
  if (stats.size > options.maxBytes) throw tooLarge(stats.size, path, options, false)
}

function tooLarge(bytes: number, path: string, options: InputFileOptions, growing: boolean): InputFileError {
  const size = growing ? `over ${options.maxBytes} bytes (it grew while it was read)` : `${bytes} bytes`
  return new InputFileError(path, `is ${size}, above the limit of ${options.maxBytes} bytes (${formatBytes(options.maxBytes)})`, options.what)
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO (named pipe)'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  if (stats.isSocket()) return 'a socket'
  return 'not a regular file'
}

function formatBytes(bytes: number): string {
  return bytes >= 1 << 20 ? `${bytes / (1 << 20)} MiB` : bytes >= 1 << 10 ? `${bytes / (1 << 10)} KiB` : `${bytes} B`
}
