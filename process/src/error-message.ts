/** An error's message; for a thrown value that cannot be made a string (`Object.create(null)`), a placeholder. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  try {
    return String(error)
  } catch {
    return 'a value that cannot be shown'
  }
}
