// Text a server or a file supplied, made safe to print on a terminal. A business-error message, an
// `error_description`, a request name or an env-file key can hold ESC (colour, cursor moves, cleared
// lines), OSC (window titles, hyperlinks), CR (overwrite the line) or LF (a new line that looks like the
// product's own "✓ …" line). Every C0 and C1 control character, DEL and the bidirectional overrides that
// reorder what is shown become visible escapes (`\x1b`, `\n`, `\u202e`), so what the user reads is what
// was sent, on the line the product put it. Tabs become one space.

const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\x1b' };

/** UNSAFE or a tab: what terminalSafe changes (one test, no copy, for the texts that hold neither: most). */
const CHANGED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function terminalSafe(text: string): string {
  if (!CHANGED.test(text)) return text;
  return text.replace(UNSAFE, (c) => NAMED[c] ?? escapeCode(c)).replace(/\t/g, ' ');
}

function escapeCode(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
