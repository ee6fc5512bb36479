import { spawn } from 'node:child_process'

/**
 * The command that opens `url` in the person's browser, or undefined where there is none to use:
 * `$BROWSER` first (the convention git, Python's webbrowser and many CLIs share; `%s` stands for
 * the URL, else it goes last; split on spaces, no shell), then the platform's opener, on Linux
 * only with a display. Pure.
 */
export function browserCommand(url: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string[] | undefined {
  const browser = env.BROWSER?.trim()
  if (browser) {
    const words = browser.split(/\s+/)
    return words.some((word) => word.includes('%s')) ? words.map((word) => word.replaceAll('%s', url)) : [...words, url]
  }
  if (platform === 'darwin') return ['open', url]
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url]
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return ['xdg-open', url]
  return undefined
}

/**
 * Starts the browser and leaves it: the sign-in does not depend on it (the URL is printed too), so
 * a missing or failing opener is only reported through `onFailure`. The child is detached from our
 * process group and never waited for: a browser outlives the login.
 */
export function openBrowser(command: string[], onFailure: (reason: string) => void): void {
  try {
    const child = spawn(command[0]!, command.slice(1), { detached: true, stdio: 'ignore' })
    child.once('error', (error) => onFailure(error.message))
    child.unref()
  } catch (error) {
    onFailure(error instanceof Error ? error.message : String(error))
  }
}
