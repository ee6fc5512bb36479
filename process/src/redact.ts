/**
 * The one redaction rule of the plugin and the conformance kit. Everything a server says about
 * itself (HTTP bodies, error texts, stderr) and everything built from configuration (URLs, header
 * values, env values) passes through here before it reaches a model, a log, a connection state or
 * a report. Pure: no I/O, no state beyond the compiled patterns of one redactor.
 *
 * Two kinds of secret are removed:
 * - values the configuration declared (`headers`, `env`, URL user-info and secret-looking query
 *   parameters), found wherever they appear, whatever surrounds them;
 * - secret shapes, by name (key=value, key: value, JSON members, --flag value, `x-api-key …`)
 *   and by value (bearer/basic credentials, URL credentials, PEM private keys, JWTs, well-known
 *   token formats).
 *
 * Every pattern takes time linear in the text, whatever the text: see the note above TOKEN_FORMATS.
 */

export const REDACTED = '<redacted>'

/** Turns untrusted or secret-bearing text into text that may be shown. */
export type Redact = (text: string) => string

/** Name substrings that mark a credential (the seed's rule, plus spellings it missed). */
const SECRET_SUBSTRINGS = ['KEY', 'PASSWORD', 'PASSWD', 'PASSPHRASE', 'SECRET', 'TOKEN', 'CREDENTIAL', 'APIKEY']
/** Whole words (split on `_`, `-`, `.` and camelCase) that mark a credential. */
const SECRET_WORDS = new Set([
  'PASS', 'PWD', 'AUTH', 'AUTHORIZATION', 'CREDS', 'COOKIE', 'COOKIES', 'PAT', 'PRIVATE', 'SESSION', 'DSN', 'SIGNATURE', 'SIG',
  'WEBHOOK', 'OTP', 'BEARER', 'JWT', 'SALT', 'TOK', 'SK', 'PW',
])

/** Protocol and everyday names that contain a secret word but hold no secret (MCP's progressToken...). */
const NOT_SECRET = new Set([
  'PWD', 'PROGRESSTOKEN', 'TOKENS', 'MAXTOKENS', 'INPUTTOKENS', 'OUTPUTTOKENS', 'TOTALTOKENS', 'TOKENCOUNT',
  'KEYS', 'KEYWORD', 'KEYWORDS', 'KEYBOARD', 'PRIMARYKEY', 'FOREIGNKEY', 'SORTKEY',
])

/** `GH_PAT`, `apiKey`, `x-api-key`, `MYSQL_PWD`, `clientSecret`... but not `PWD` (the working directory). */
export function isSecretName(name: string): boolean {
  const words = nameWords(name)
  const joined = joinWords(words)
  if (NOT_SECRET.has(joined)) return false
  return SECRET_SUBSTRINGS.some((part) => joined.includes(part)) || SECRET_WORD.test(words)
}

/**
 * A name upper-cased, with `_` between camelCase humps: its words are its runs of letters and
 * digits. Kept a string, not split into an array: a name can be 100k characters of server text.
 */
function nameWords(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()
}

function joinWords(words: string): string {
  return words.replace(/[^A-Z0-9]+/g, '')
}

/** One of SECRET_WORDS as a whole word. */
const SECRET_WORD = new RegExp(`(?<![A-Z0-9])(?:${[...SECRET_WORDS].join('|')})(?![A-Z0-9])`)

/** A value carries a credential when redacting it changes it (a URL password, a token, a key...). */
export function isSecretValue(value: string): boolean {
  return redactShapes(value) !== value
}

/*
 * Every pattern below runs in time linear in its input: the redaction window is some 100k
 * characters of text a server chose, and a pattern that rescans a run from each of its positions
 * costs seconds of the host's event loop (100k backslashes took 10 s), during which no timeout
 * fires. So a quantified run that can fail after it (a name that must be followed by `:`, a
 * segment that must be followed by `.`) is only started where such a run begins, by a lookbehind
 * on the run's own characters, or read by a loop of its own (quotedValue);
 * test/redact-linear.test.ts holds each shape of text to that.
 */

/** U+2010 hyphen, U+2011 non-breaking hyphen, U+2212 minus: they look like `-` and are pasted for it. */
const HYPHEN = String.raw`[-\u2010\u2011\u2212]`
/** Zero-width space, non-joiner, joiner, word joiner and BOM: invisible, so they split a key unseen. */
const ZERO_WIDTH = String.raw`[\u200B-\u200D\u2060\uFEFF]`

/** Known token formats; each is specific enough to be removed wherever it appears, even glued to other text. */
const TOKEN_FORMATS = [
  String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}`, // AWS access key ids
  String.raw`gh[pousr]_[A-Za-z0-9]{20,}`, // GitHub
  String.raw`github_pat_[A-Za-z0-9_]{20,}`,
  String.raw`npm_[A-Za-z0-9]{30,}`, // npm
  String.raw`xox[abposre]-[A-Za-z0-9-]{10,}`, // Slack
  String.raw`hf_[A-Za-z0-9]{20,}`, // Hugging Face
  // OpenAI, Anthropic (sk-ant-)...; not the end of "task-…". Also with a look-alike hyphen or an
  // invisible character inside, which a copy from a document or a chat brings along.
  String.raw`(?<![A-Za-z0-9_-])s${ZERO_WIDTH}*k${ZERO_WIDTH}*${HYPHEN}${ZERO_WIDTH}*[A-Za-z0-9_\u2010\u2011\u2212\u200B-\u200D\u2060\uFEFF-]{20,}`,
  // Their typed prefixes are specific enough to be found glued to a word too ("foundsk-proj-…",
  // "leak_sk-proj-…"), where the bare `sk-` would also match "task-…".
  String.raw`s${ZERO_WIDTH}*k${ZERO_WIDTH}*${HYPHEN}${ZERO_WIDTH}*(?:proj|svcacct|ant${HYPHEN}(?:api|admin)\d\d)${ZERO_WIDTH}*${HYPHEN}[A-Za-z0-9_\u2010\u2011\u2212\u200B-\u200D\u2060\uFEFF-]{20,}`,
  String.raw`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}`, // Stripe
  String.raw`whsec_[A-Za-z0-9]{20,}`,
  String.raw`AIza[0-9A-Za-z_-]{35}`, // Google API keys
  String.raw`(?<![A-Za-z0-9_-])ya29\.[A-Za-z0-9._-]{20,}`, // Google OAuth access tokens
  String.raw`glpat-[A-Za-z0-9_-]{20,}`, // GitLab
]
const NAME = String.raw`[A-Za-z][A-Za-z0-9_.-]*`
/** RFC 7235: an auth scheme is case-insensitive (`bearer`, `BEARER`, `Bearer`). */
const SCHEME = String.raw`(?:${['bearer', 'basic', 'token', 'digest'].map(anyCase).join('|')})`
/** A value after `=` or `:`: quoted, an auth scheme and its credential, or a run up to a delimiter. */
const VALUE = String.raw`(?!(?:${SCHEME}\s+)?<redacted>)(?:"[^"\n]*"|'[^'\n]*'|(?:${SCHEME}\s+)?[^\s"',;&<>}\]]+)`
const CREDENTIAL_CHAR = String.raw`[A-Za-z0-9._~+/=:-]`
/**
 * A credential after an auth scheme or a header name, at least `min` characters. A plain
 * lower-case word of up to 15 letters is prose ("Bearer token", "Basic authentication"); a longer
 * one is no English word after a scheme, but a credential that happens to be all lower case.
 */
const credential = (min: number) => String.raw`(?!realm=)(?![a-z]{1,15}(?!${CREDENTIAL_CHAR}))${CREDENTIAL_CHAR}{${min},}`

/** [pattern, replacement], or a function; applied in order, each to the output of the one before. */
const SHAPES: Array<[RegExp, string] | ((text: string) => string)> = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g, '<redacted private key>'],
  // scheme://user:password@host: the password goes, the user and host stay (they say where).
  [/((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^/\s:@"'<>]*:)[^/\s@"'<>]+@/gi, `$1${REDACTED}@`],
  [/\b(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[^\s"'<>)]+/gi, `$1${REDACTED}`],
  [/\b(discord(?:app)?\.com\/api\/webhooks\/)[^\s"'<>)]+/gi, `$1${REDACTED}`],
  redactJwts,
  [new RegExp(TOKEN_FORMATS.join('|'), 'g'), REDACTED],
  // An auth scheme, in any case, and its credential.
  [new RegExp(String.raw`\b(${['bearer', 'basic', 'digest'].map(anyCase).join('|')})(\s+)${credential(4)}`, 'g'), `$1$2${REDACTED}`],
  // The API-key header written with a space instead of a colon (`x-api-key: …` is a key: value below).
  [new RegExp(String.raw`(?<![A-Za-z0-9_.-])(${anyCase('x-api-key')}[ \t]+)(?![=:])${credential(8)}`, 'g'), `$1${REDACTED}`],
]

/** A value found after a head: where it ends, and the quote kept around `<redacted>`. */
interface Value {
  end: number
  quote: string
}

/**
 * Shapes found by their name: a head (the name and its separator) and, when the name is a
 * secret's, the value after it. A head whose name is not a secret's is passed over at once, so
 * its value is scanned too (`env: TOKEN=…`, `{"a":{"apiKey":…}}`) and no input costs more than
 * linear time.
 */
interface NamedShape {
  head: RegExp
  /** Whether the head names a secret. */
  secret(head: RegExpExecArray): boolean
  /** The value that starts at `at`, where the head ends. */
  value(text: string, at: number): Value | undefined
  /** What replaces the head (all of its match) and the value. */
  replace(head: RegExpExecArray, value: Value): string
}

const NAMED: NamedShape[] = [
  // JSON members, also inside JSON that is itself a string ("{\"apiKey\":\"…\"}"). The opening
  // quote's backslashes are matched from where their run begins: the run may be longer than the
  // closing quote's (its first backslashes escape something else), and the head proper is then
  // its last ones; starting inside the run instead made `\\\\…` quadratic.
  {
    head: new RegExp(String.raw`(?<!\\)(\\*)(["'])(${NAME})(\\*)\2\s*:\s*`, 'g'),
    secret: ([, opening, , name, closing]) => closing!.length <= opening!.length && isSecretName(name!),
    value: (text, at) => quotedValue(text, at) ?? stickyValue(JSON_BARE_VALUE, text, at),
    replace: ([head], { quote }) => `${head}${quote}${REDACTED}${quote}`,
  },
  // --password value, --token=value. From where a run of name characters begins, to its first
  // flag (a `-` at the run's start or after a `.`); the lookahead first checks the run's end once,
  // as a separator after it is what every flag of the run needs, and `.-a.-a…` stays linear.
  {
    head: new RegExp(
      String.raw`(?<![A-Za-z0-9_.-])(?=[A-Za-z0-9_.-]*(?:=(?!-)|\s(?!-)|\s\s))([A-Za-z0-9_.-]*?)(?<![A-Za-z0-9_-])(--?(${NAME}))(=|\s+)(?!-)`,
      'g',
    ),
    secret: ([, , , name]) => isSecretFlag(name!),
    value: (text, at) => stickyValue(FLAG_OR_KEY_VALUE, text, at),
    replace: ([, before, flag, , separator]) => `${before}${flag}${separator}${REDACTED}`,
  },
  // key=value, key: value, ?token=…&, ;Password=…; (PWD in a connection string is a password).
  // Name, separator and value share a line: "session-expiry.snap:\nline 12" is a file and a line.
  {
    head: new RegExp(String.raw`(?<![A-Za-z0-9_.-])(${NAME})([ \t]*(?:=|:)[ \t]*)(?!//)`, 'g'),
    secret: ([, name]) => isSecretName(name!) || /^pwd$/i.test(name!),
    value: (text, at) => stickyValue(FLAG_OR_KEY_VALUE, text, at),
    replace: ([, name, separator]) => `${name}${separator}${REDACTED}`,
  },
]

const FLAG_OR_KEY_VALUE = new RegExp(VALUE, 'y')
const JSON_BARE_VALUE = /[^\s,}\]{[]+/y

function stickyValue(pattern: RegExp, text: string, at: number): Value | undefined {
  pattern.lastIndex = at
  return pattern.exec(text) ? { end: pattern.lastIndex, quote: '' } : undefined
}

/**
 * A JSON string value: `\\*["']`, then up to the first place where the same backslashes and
 * quote recur, on one line (what `(\\*["'])(?:(?!\1).)*\1` matched, without comparing the whole
 * opening again at every character). An opening of more backslashes than a string nested five
 * deep has is not taken for one (the bare run is), which bounds the rescans a line of
 * ever-shorter openings with no closing quote can cause.
 */
function quotedValue(text: string, at: number): Value | undefined {
  let quoteAt = at
  while (text.charCodeAt(quoteAt) === BACKSLASH) quoteAt++
  const quote = text[quoteAt]
  const backslashes = quoteAt - at
  if ((quote !== '"' && quote !== "'") || backslashes > MAX_OPENING_BACKSLASHES) return undefined
  let run = 0
  for (let i = quoteAt + 1; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === BACKSLASH) {
      run++
      continue
    }
    if (text[i] === quote && run >= backslashes) return { end: i + 1, quote: text.slice(at, quoteAt + 1) }
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return undefined
    run = 0
  }
  return undefined
}

const BACKSLASH = 0x5c
const MAX_OPENING_BACKSLASHES = 31

/**
 * A flag names a secret when its name does, or the name of a flag glued after a `.` inside it
 * (`--a.-token`: the run's first flag is the one matched). Those names are the first one's last
 * words, so only a first name that is secret-looking but listed as no secret (`--primary.-key`)
 * needs them looked at, and such a name has few words to look at.
 */
function isSecretFlag(name: string): boolean {
  if (isSecretName(name)) return true
  if (!NOT_SECRET.has(joinWords(nameWords(name)))) return false
  for (const glued of name.matchAll(/\.--?(?=[A-Za-z])/g)) if (isSecretName(name.slice(glued.index + glued[0].length))) return true
  return false
}

function replaceNamed(text: string, shape: NamedShape): string {
  const { head } = shape
  let out = ''
  let copied = 0
  head.lastIndex = 0
  for (let match = head.exec(text); match; match = head.exec(text)) {
    // The name first: a value is read only after a secret's name, which keeps `a=a=a=…` linear.
    const found = shape.secret(match) ? shape.value(text, match.index + match[0].length) : undefined
    if (!found) {
      head.lastIndex = match.index + 1
      continue
    }
    out += text.slice(copied, match.index) + shape.replace(match, found)
    copied = found.end
    head.lastIndex = copied
  }
  return out + text.slice(copied)
}

const BASE64URL_RUN = /[A-Za-z0-9_-]+/g
const BASE64URL_CHARS = /[A-Za-z0-9_-]*/y

/**
 * JWTs (an unsigned one has no third part, but keeps its dot), glued to other text or not:
 * `header.payload.signature`, where header and payload start with `eyJ` and hold at least 5 more
 * characters. Within a run of base64url characters only its first `eyJ` can start a header: a
 * later one ends at the same place and needs the same `.eyJ…` after it, so it fails just the same.
 * The text before it stays, for the token formats after this. Written as a scan over runs rather
 * than one pattern: the pattern needed a lookahead per character, which V8 cannot run without
 * a backtrack entry per character, and a 10-million-character run overflowed its stack.
 */
function redactJwts(text: string): string {
  if (!text.includes('eyJ')) return text
  let out = ''
  let copied = 0
  BASE64URL_RUN.lastIndex = 0
  for (let run = BASE64URL_RUN.exec(text); run; run = BASE64URL_RUN.exec(text)) {
    const header = run.index + run[0].indexOf('eyJ')
    const headerEnd = run.index + run[0].length
    if (header < run.index || headerEnd - header < 8 || text[headerEnd] !== '.') continue
    const payloadEnd = runEnd(text, headerEnd + 1)
    if (!text.startsWith('eyJ', headerEnd + 1) || payloadEnd - (headerEnd + 1) < 8 || text[payloadEnd] !== '.') continue
    const end = runEnd(text, payloadEnd + 1)
    out += text.slice(copied, header) + REDACTED
    copied = end
    BASE64URL_RUN.lastIndex = end
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** Where the run of base64url characters from `at` ends. */
function runEnd(text: string, at: number): number {
  BASE64URL_CHARS.lastIndex = at
  BASE64URL_CHARS.exec(text)
  return BASE64URL_CHARS.lastIndex
}

function redactShapes(text: string): string {
  let out = text
  for (const shape of SHAPES) out = typeof shape === 'function' ? shape(out) : out.replace(shape[0], shape[1])
  for (const shape of NAMED) out = replaceNamed(out, shape)
  return out
}

/** Redacts secret shapes only; for text with no configuration behind it. */
export function redactSecrets(text: string): string {
  return redactShapes(text)
}

/** Shorter configured values are not searched for: they would erase ordinary words. */
const MIN_KNOWN_CHARS = 6

/**
 * A redactor that also removes the given values (and their URL- and JSON-escaped spellings)
 * wherever they appear. Longest first, so a value that contains another goes as a whole. The
 * values go before the shapes: a value that holds a shape (`prefix sk-proj-…`) would no longer be
 * found whole once the shape had been replaced, and its other characters would stay.
 */
export function createRedactor(known: Iterable<string> = []): Redact {
  const spellings = new Set<string>()
  for (const value of known) {
    if (typeof value !== 'string' || value.length < MIN_KNOWN_CHARS) continue
    spellings.add(value)
    spellings.add(encodeURIComponent(value))
    spellings.add(JSON.stringify(value).slice(1, -1))
    spellings.add(JSON.stringify(JSON.stringify(value)).slice(3, -3))
  }
  const removeKnown = knownRemover([...spellings].sort((a, b) => b.length - a.length))
  return (text) => redactShapes(removeKnown(text))
}

/**
 * V8 refuses a pattern past a size of its own ("Regular expression too large"), which one long
 * configured value reaches once JSON-escaped; the spellings are therefore matched by patterns of a
 * bounded size, longest first, and a spelling too long for one is replaced as plain text. A later
 * pattern matches the marker first and keeps it, so a shorter spelling never cuts into it.
 */
const MAX_PATTERN_CHARS = 16 * 1024

function knownRemover(ordered: readonly string[]): (text: string) => string {
  const steps: Array<(text: string) => string> = []
  let group: string[] = []
  let size = 0
  const close = () => {
    if (!group.length) return
    const pattern = new RegExp([escapeRegExp(REDACTED), ...group].join('|'), 'g')
    steps.push((text) => text.replace(pattern, (match) => (match === REDACTED ? match : REDACTED)))
    group = []
    size = 0
  }
  for (const spelling of ordered) {
    const source = escapeRegExp(spelling)
    if (source.length > MAX_PATTERN_CHARS) {
      steps.push((text) => text.replaceAll(spelling, REDACTED))
      continue
    }
    if (size + source.length > MAX_PATTERN_CHARS) close()
    group.push(source)
    size += source.length + 1
  }
  close()
  return (text) => steps.reduce((out, step) => step(out), text)
}

/** A redactor that can be taught values it meets later: the tokens an OAuth grant hands over. */
export type LearningRedact = Redact & { learn(value: string): void }

export function createLearningRedactor(known: Iterable<string> = [], maxLearned = MAX_LEARNED): LearningRedact {
  const fixed = [...known]
  // The most recent learned values: a long-lived connection gets a new token every hour or so, and
  // an old one is worth nothing to anyone; the pattern should not grow for the process's life.
  const learned: string[] = []
  let current = createRedactor(fixed)
  const redact = (text: string) => current(text)
  return Object.assign(redact, {
    learn(value: string) {
      if (fixed.includes(value) || learned.includes(value)) return
      learned.push(value)
      if (learned.length > maxLearned) learned.shift()
      current = createRedactor([...fixed, ...learned])
    },
  })
}

const MAX_LEARNED = 32

/** The values a configuration declares that must never be shown. */
export function configSecrets(config: { headers?: Record<string, string>; env?: Record<string, string>; url?: string }): string[] {
  const secrets: string[] = []
  for (const value of Object.values(config.headers ?? {})) {
    // The credential alone, as a server may echo it without its scheme, and the scheme stays to
    // say what was there; the whole value when the credential is too short to be searched alone.
    const credential = /^\s*[A-Za-z-]+\s+(\S+)\s*$/.exec(value)?.[1]
    secrets.push(credential !== undefined && credential.length >= MIN_KNOWN_CHARS ? credential : value)
  }
  for (const [name, value] of Object.entries(config.env ?? {})) {
    if (isSecretName(name) || isSecretValue(value) || looksRandom(value)) secrets.push(value)
  }
  if (config.url) secrets.push(...urlSecrets(config.url))
  return secrets
}

/** The password of a URL's user-info and the values of its secret-looking query parameters. */
export function urlSecrets(url: string): string[] {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return []
  }
  const secrets: string[] = []
  if (parsed.password) {
    const user = decodeURIComponent(parsed.username)
    const password = decodeURIComponent(parsed.password)
    // The Basic credential the bridge sends for them (see transport.ts), as a server may echo it.
    secrets.push(parsed.password, password, Buffer.from(`${user}:${password}`).toString('base64'))
  }
  for (const [name, value] of parsed.searchParams) if (isSecretName(name) && value) secrets.push(value)
  return secrets
}

/** A URL fit to show: without the user-info password and with secret-looking query values redacted. */
export function redactUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return redactSecrets(url)
  }
  if (parsed.password) parsed.password = 'redacted'
  for (const name of [...new Set(parsed.searchParams.keys())]) if (isSecretName(name)) parsed.searchParams.set(name, 'redacted')
  return redactSecrets(parsed.href)
}

/**
 * Untrusted text made fit to quote: redacted, then cut to `maxChars` with a notice of the
 * original length (`totalChars`: Infinity when the source was not read to its end). Only a window of the text is redacted, so a 400 MB body costs no more than
 * its first `maxChars`; the window's last part is dropped, since a secret cut by the window's end
 * is no longer recognisable.
 */
export function quoteUntrusted(text: string, maxChars: number, redact: Redact = redactSecrets, totalChars = text.length): string {
  const windowed = text.length > maxChars + WINDOW_MARGIN
  const redacted = redact(windowed ? text.slice(0, maxChars + WINDOW_MARGIN) : text)
  const limit = windowed ? Math.max(0, Math.min(maxChars, redacted.length - WINDOW_MARGIN)) : maxChars
  if (redacted.length <= limit && totalChars === text.length) return redacted
  const shown = redacted.slice(0, limit)
  // Infinity: the source was abandoned after `text`, its real length is unknown.
  const of = totalChars === Infinity ? `more than ${text.length}` : String(totalChars)
  return `${shown}… [cut: showed ${shown.length} of ${of} characters]`
}

/** Longer than any secret shape the redactor recognises, except PEM keys (removed to the end). */
const WINDOW_MARGIN = 2048

/** Token-like: long, no spaces, letters and digits mixed. Not a path. */
function looksRandom(value: string): boolean {
  if (value.length < 12 || /\s/.test(value) || /^(\/|[A-Za-z]:\\|\.)/.test(value)) return false
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value)
}

/** `bearer` as `[Bb][Ee][Aa][Rr][Ee][Rr]`: one word of a pattern in any case, the rest of it not. */
function anyCase(word: string): string {
  return [...word].map((char) => (char.toLowerCase() === char.toUpperCase() ? escapeRegExp(char) : `[${char.toUpperCase()}${char.toLowerCase()}]`)).join('')
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
