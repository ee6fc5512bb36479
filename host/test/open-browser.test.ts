import { describe, expect, it } from 'vitest'
import { browserCommand } from '../src/cli/open-browser.ts'

const URL_ = 'http://127.0.0.1:1/authorize?x=1'

describe('browserCommand', () => {
  it('runs $BROWSER with the URL last, or where %s stands, without a shell', () => {
    expect(browserCommand(URL_, { BROWSER: 'firefox --new-window' }, 'linux')).toEqual(['firefox', '--new-window', URL_])
    expect(browserCommand(URL_, { BROWSER: 'w3m %s -dump' }, 'darwin')).toEqual(['w3m', URL_, '-dump'])
  })

  it("uses the platform's opener otherwise, on Linux only with a display", () => {
    expect(browserCommand(URL_, {}, 'darwin')).toEqual(['open', URL_])
    expect(browserCommand(URL_, {}, 'win32')).toEqual(['rundll32', 'url.dll,FileProtocolHandler', URL_])
    expect(browserCommand(URL_, { DISPLAY: ':0' }, 'linux')).toEqual(['xdg-open', URL_])
    expect(browserCommand(URL_, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual(['xdg-open', URL_])
    expect(browserCommand(URL_, { BROWSER: '  ' }, 'linux')).toBeUndefined()
  })
})
