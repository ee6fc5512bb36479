/**
 * Chromium for browser tests: the build that the npm package @sparticuz/chromium ships, so `npm ci`
 * brings it and no system browser is needed. A launch that fails throws with the reason; it never
 * turns into a skip.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sparticuz from '@sparticuz/chromium'
import { chromium, type Browser } from 'playwright-core'

/** Keep the browser off the network: no component updates, sync, first-run or background fetches. */
const OFFLINE_ARGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync']
/** Containers often give /dev/shm only 64 MB, which a renderer can exhaust. */
const EXTRA_ARGS = ['--disable-dev-shm-usage']
/**
 * The package's `--single-process` is for AWS Lambda's sandbox. Elsewhere it makes Chromium exit
 * when the first browser context closes, so a test's second `browser.newPage()` fails.
 */
const DROPPED_ARGS = ['--single-process']
const LAUNCH_TIMEOUT_MS = 60_000

export interface LaunchedChromium {
  browser: Browser
  /** Closes the browser, then removes the unpacked binary. Safe to call more than once. */
  close(): Promise<void>
}

/**
 * Unpacks the binary (about 2 s) and launches it headless. `executablePath()` unpacks into
 * os.tmpdir() and reuses any `chromium` file it finds there, even one half-written by a run that
 * was interrupted or is running at the same time. So each launch unpacks into its own temp
 * directory (pointed to by TMPDIR for the duration of the call) and removes it on close.
 */
export async function launchChromium(): Promise<LaunchedChromium> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-chromium-'))
  const cleanup = () => rm(dir, { recursive: true, force: true })
  let executablePath: string | undefined
  try {
    executablePath = await withTmpdir(dir, () => sparticuz.executablePath())
    const base = sparticuz.args.filter((arg) => !DROPPED_ARGS.includes(arg))
    const args = [...base, ...[...OFFLINE_ARGS, ...EXTRA_ARGS].filter((arg) => !base.includes(arg))]
    const browser = await chromium.launch({ executablePath, args, headless: true, timeout: LAUNCH_TIMEOUT_MS })
    let closed: Promise<void> | undefined
    const close = () => (closed ??= browser.close().finally(cleanup))
    return { browser, close }
  } catch (error) {
    await cleanup()
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`could not launch the Chromium of @sparticuz/chromium (${executablePath ?? 'not unpacked'}): ${reason}`, { cause: error })
  }
}

async function withTmpdir<T>(dir: string, run: () => Promise<T>): Promise<T> {
  const previous = process.env.TMPDIR
  process.env.TMPDIR = dir
  try {
    return await run()
  } finally {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
  }
}
