// What a caught value says, in one line of words: an Error's message, anything else as text. The one
// way every surface turns a fault it caught into the words it shows (after which it is redacted and made
// terminal-safe where it is printed).

export function faultText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
