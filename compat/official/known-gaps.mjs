// The scored client scenarios of the official suite that the plugin does not pass yet, per frozen
// requirement set, each with the reason and the issue that closes it. test/official holds the
// plugin to exactly this list: a scenario that fails without an entry fails the test, and so does
// an entry whose scenario now passes (remove it). Nothing here is "cannot apply to a bridge".

export const KNOWN_GAPS = {
  '2025-11-25': {},
  '2026-07-28': {},
}
