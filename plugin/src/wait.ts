/** Settles when `task` settles or `ms` pass, whichever is first; never rejects, leaves no timer. */
export async function waitAtMost(task: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([task.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))])
  } finally {
    clearTimeout(timer)
  }
}
