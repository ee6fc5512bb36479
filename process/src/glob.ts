/**
 * Whether `name` matches `glob`: `*` matches any run of characters (none included), everything
 * else is literal and case-sensitive. A linear two-pointer match, not a RegExp: the names come
 * from a peer (a server's tool names), and a backtracking pattern with several stars can take
 * seconds on one of them.
 */
export function matchesGlob(glob: string, name: string): boolean {
  let g = 0
  let n = 0
  let star = -1
  let resume = 0
  while (n < name.length) {
    if (g < glob.length && glob[g] !== '*' && glob[g] === name[n]) {
      g++
      n++
    } else if (g < glob.length && glob[g] === '*') {
      star = g++
      resume = n
    } else if (star >= 0) {
      g = star + 1
      n = ++resume
    } else {
      return false
    }
  }
  while (g < glob.length && glob[g] === '*') g++
  return g === glob.length
}
