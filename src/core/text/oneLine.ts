// Every line break a .http file's reader counts (CRLF, CR, LF, NEL, LS, PS), and a text made one line by
// turning each into a space: a title, a comment or a word about a name can then never start a line the
// parser reads differently.
export const LINE_BREAKS = /\r\n|\r|\n|\u0085|\u2028|\u2029/g;

export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ');
}
