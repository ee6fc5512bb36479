import { describe, expect, it } from 'vitest'
import { redactSecrets } from '../src/index.ts'

/**
 * A server chooses the text the bridge redacts (error bodies, stderr, error messages), and a
 * redaction window is some 100k characters. A pattern that rescans a run from each of its
 * positions is quadratic there: 100k backslashes took 10 s of the host's only thread, and no
 * timeout fires while it runs. Each shape below is a run that some pattern once rescanned (or
 * might: runs of every separator and prefix the patterns know), at n and 4n characters.
 *
 * Regex engines expose no step count, so the work is measured as this process's CPU time, and
 * only as a ratio of two sizes measured in the same second: 4n characters cost about 4 times n
 * when the work is linear and 16 times when it is quadratic, and the bound sits between. CPU
 * time, not the clock: on a loaded machine the clock also counts the time other processes ran
 * (measured: clock ratios from 4 to 25 for the same linear shape, CPU ratios 3.6 to 4.4). Each
 * size is measured several times, interleaved, and the cheapest run kept, as anything else
 * (a collection, a cold cache) only ever adds.
 */
const SHAPES: Array<[string, (n: number) => string]> = [
  ['backslashes', (n) => '\\'.repeat(n)],
  ['JWT headers', (n) => 'eyJ'.repeat(n / 3)],
  ['JWT headers before a dot', (n) => `${'eyJ'.repeat(n / 6)}.${'eyJ'.repeat(n / 6)}`],
  ['JWT-like segments', (n) => 'eyJaaaaa.'.repeat(n / 9)],
  ['hyphens', (n) => '-'.repeat(n)],
  ['equals signs', (n) => '='.repeat(n)],
  ['dots', (n) => '.'.repeat(n)],
  ['colons', (n) => ':'.repeat(n)],
  ['double quotes', (n) => '"'.repeat(n)],
  ['single quotes', (n) => "'".repeat(n)],
  ['spaces', (n) => ' '.repeat(n)],
  ['letters', (n) => 'a'.repeat(n)],
  ['sk- prefixes', (n) => 'sk-'.repeat(n / 3)],
  ['sk- prefixes with a look-alike hyphen', (n) => 'sk\u2011'.repeat(n / 3)],
  ['Bearer schemes', (n) => 'Bearer '.repeat(n / 7)],
  ['bearer schemes with short words', (n) => 'bearer a '.repeat(n / 9)],
  ['x-api-key headers', (n) => 'x-api-key '.repeat(n / 10)],
  ['ya29. prefixes', (n) => 'ya29.'.repeat(n / 5)],
  ['key= pairs', (n) => 'key='.repeat(n / 4)],
  ['a= pairs', (n) => 'a='.repeat(n / 2)],
  ['a: pairs', (n) => 'a:'.repeat(n / 2)],
  ['secret names with an open quote', (n) => `token="${'a'.repeat(50)} `.repeat(n / 58)],
  ['URL user-info', (n) => 'x://user:'.repeat(n / 9)],
  ['URL passwords without @', (n) => `x://u:${'p'.repeat(n)}`],
  ['scheme-like runs', (n) => 'a://'.repeat(n / 4)],
  ['flags glued after dots', (n) => '.-a'.repeat(n / 3)],
  ['flags glued after dots, then =', (n) => `${'.-a'.repeat(n / 3)}=x`],
  ['flags glued after dots, then a space', (n) => `${'.-a'.repeat(n / 3)} x`],
  ['double-dash flags glued after dots', (n) => '.--a'.repeat(n / 4)],
  ['quoted names', (n) => '"a":'.repeat(n / 4)],
  ['escaped quotes', (n) => '\\"a'.repeat(n / 3)],
  ['long quoted names', (n) => `"${'a'.repeat(n / 10)}`.repeat(10)],
  ['a JSON key before backslashes', (n) => `"apiKey":${'\\'.repeat(n)}`],
  ['a JSON value whose closing quote has fewer backslashes', (n) => `"apiKey":${'\\'.repeat(n / 4)}"${'\\'.repeat(n / 2)}x`],
  [
    'JSON values opened by ever fewer backslashes, never closed',
    (n) => {
      let text = ''
      for (let k = 1; text.length < n; k++) text = `'apiKey':${'\\'.repeat(k)}" ${text}`
      return text
    },
  ],
  ['PEM headers', (n) => '-----BEGIN '.repeat(n / 11)],
  ['PEM footers', (n) => `-----BEGIN PRIVATE KEY-----${'-----END '.repeat(n / 9)}`],
]

const SMALL = 50_000
const RUNS = 15

describe('redaction costs time linear in its input', () => {
  it.each(SHAPES)('%s', (_name, make) => {
    const small = make(SMALL)
    const large = make(4 * SMALL)
    expect(large.length).toBeGreaterThan(3.5 * small.length)
    redactSecrets(small) // compiled and warm before anything is timed
    let fastestSmall = Infinity
    let fastestLarge = Infinity
    for (let run = 0; run < RUNS; run++) {
      fastestSmall = Math.min(fastestSmall, cpuTime(() => redactSecrets(small)))
      fastestLarge = Math.min(fastestLarge, cpuTime(() => redactSecrets(large)))
    }
    expect(fastestLarge / fastestSmall).toBeLessThan(8)
  })
})

/** Microseconds of CPU (user and system) the work took. */
function cpuTime(work: () => unknown): number {
  const started = process.cpuUsage()
  work()
  const { user, system } = process.cpuUsage(started)
  return user + system
}

describe('no run overflows the regex engine', () => {
  // A pattern with a lookahead inside a repeated group takes a backtrack entry per character:
  // about 10 million base64url characters in a row overflowed V8's stack (RangeError).
  it.each([
    ['letters', 'A'.repeat(12_000_000)],
    ['JWT headers', 'eyJ'.repeat(4_000_000)],
  ])('%s, 12 million characters, pass through whole', (_, text) => {
    expect(redactSecrets(text)).toBe(text)
  })

  it('a JWT after 12 million base64url characters and a space is still found', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123'
    expect(redactSecrets(`${'A'.repeat(12_000_000)} ${jwt}`)).toBe(`${'A'.repeat(12_000_000)} <redacted>`)
  })
})
